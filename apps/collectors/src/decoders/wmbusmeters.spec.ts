import { describe, expect, it } from 'vitest';
import { decodeUplink } from './decode';
import type { Decoded, DecodedAlarm } from './uplink';

/**
 * wmbusmeters' own documented output: the README's multical21 example, and the
 * JSON its driver tests expect for multical21, iperl and izar (1111-11-11 is
 * the time its tests print).
 */
const MULTICAL21_README =
  '{"media":"cold water","meter":"multical21","name":"MyTapWater","id":"12345678","total_m3":6.388,"target_m3":6.377,"max_flow_m3h":0.000,"flow_temperature":8,"external_temperature":23,"current_status":"DRY","time_dry":"22-31 days","time_reversed":"","time_leaking":"","time_bursting":"","timestamp":"2018-02-08T09:07:22Z","device":"im871a[1234567]","rssi_dbm":-40}';
const MULTICAL21_DRIVER =
  '{"media":"cold water","meter":"multical21","name":"MyTapWater","id":"76348799","status":"DRY","total_m3":6.408,"target_m3":6.408,"flow_temperature_c":127,"external_temperature_c":19,"current_status":"DRY","time_dry":"22-31 days","time_reversed":"","time_leaking":"","time_bursting":"","timestamp":"1111-11-11T11:11:11Z"}';
const IPERL = '{"media":"water","meter":"iperl","name":"MoreWater","id":"12345699","total_m3":7.704,"max_flow_m3h":0,"timestamp":"1111-11-11T11:11:11Z"}';
const IPERL_PLAIN =
  '{"media":"water","meter":"iperl","name":"WaterWater","id":"33225544","total_m3":123.529,"max_flow_m3h":0,"timestamp":"1111-11-11T11:11:11Z"}';
const IZAR =
  '{"media":"water","meter":"izar","name":"IzarWater","id":"21242472","prefix":"C19UA","serial_number":"145842","total_m3":3.488,"last_month_total_m3":3.486,"last_month_measure_date":"2019-09-30","remaining_battery_life_y":14.5,"current_alarms":"meter_blocked,underflow","previous_alarms":"no_alarm","transmit_period_s":8,"manufacture_year":"2019","timestamp":"1111-11-11T11:11:11Z"}';
const IZAR_MQTT =
  '{"media":"water","meter":"izar","name":"watermeter","id":"18444343","prefix":"","serial_number":"000000","total_m3":312.811,"last_month_total_m3":312.412,"last_month_measure_date":"2021-11-01","remaining_battery_life_y":12,"current_alarms":"no_alarm","previous_alarms":"no_alarm","transmit_period_s":8,"manufacture_year":"0","timestamp":"2021-11-03T15:02:37Z","device":"cul","rssi_dbm":-70}';

const decode = (body: string, topic = 'wmbusmeters/MyTapWater'): Decoded =>
  decodeUplink({ format: 'wmbusmeters', mapping: {}, topic, body: new TextEncoder().encode(body), receivedAt: 0 });

const raisedOf = (decoded: Decoded) =>
  decoded.kind === 'uplink' ? decoded.uplink.alarms.filter((a) => a.state === 'raised').map((a) => [a.code, a.message]) : decoded;
const clearedOf = (decoded: Decoded) => (decoded.kind === 'uplink' ? decoded.uplink.alarms.filter((a) => a.state === 'cleared').map((a) => a.code) : decoded);

describe('wmbusmeters decoder', () => {
  it.each([
    ['multical21 (README)', MULTICAL21_README, '12345678', 6.388, '2018-02-08T09:07:22Z'],
    ['multical21 (driver test)', MULTICAL21_DRIVER, '76348799', 6.408, '1111-11-11T11:11:11Z'],
    ['iperl', IPERL, '12345699', 7.704, '1111-11-11T11:11:11Z'],
    ['iperl without 2f2f markers', IPERL_PLAIN, '33225544', 123.529, '1111-11-11T11:11:11Z'],
    ['izar', IZAR, '21242472', 3.488, '1111-11-11T11:11:11Z'],
    ['izar over MQTT', IZAR_MQTT, '18444343', 312.811, '2021-11-03T15:02:37Z'],
  ])('%s: the meter by its wM-Bus id, total_m3 in m³ at its timestamp', (_name, body, id, value, at) => {
    const decoded = decode(body);
    expect(decoded.kind).toBe('uplink');
    if (decoded.kind !== 'uplink') return;
    expect(decoded.uplink.device).toEqual({ kind: 'wmbus_id', wmbusId: id });
    expect(decoded.uplink.readings).toEqual([{ read_at: at, value, channel: 1, unit: 'm³' }]);
  });

  it('raises DRY from current_status and status, and clears every other code', () => {
    const decoded = decode(MULTICAL21_DRIVER);
    expect(raisedOf(decoded)).toEqual([['DRY', 'The meter reports DRY (wmbusmeters status).']]);
    expect(clearedOf(decoded)).toEqual(['REVERSE_FLOW', 'TAMPER', 'LEAK', 'BURST', 'OTHER']);
    expect((decoded as { uplink: { alarms: DecodedAlarm[] } }).uplink.alarms.every((a) => a.at === '1111-11-11T11:11:11Z')).toBe(true);
  });

  it.each([
    ['REVERSE', [['REVERSE_FLOW', 'The meter reports REVERSE (wmbusmeters status).']]],
    [
      'REVERSED LEAK',
      [
        ['REVERSE_FLOW', 'The meter reports REVERSED (wmbusmeters status).'],
        ['LEAK', 'The meter reports LEAK (wmbusmeters status).'],
      ],
    ],
    [
      'TAMPER BURST',
      [
        ['TAMPER', 'The meter reports TAMPER (wmbusmeters status).'],
        ['BURST', 'The meter reports BURST (wmbusmeters status).'],
      ],
    ],
    [
      'DRY MAGNET_FRAUD',
      [
        ['DRY', 'The meter reports DRY (wmbusmeters status).'],
        ['OTHER', 'The meter reports MAGNET_FRAUD (wmbusmeters status).'],
      ],
    ],
    ['OK', []],
  ])('status %j raises %j', (status, raised) => {
    expect(raisedOf(decode(`{"id":"12345678","total_m3":1,"status":"${status}","timestamp":"2024-05-01T10:00:00Z"}`))).toEqual(raised);
  });

  it("raises izar's current_alarms words as OTHER and no_alarm as none", () => {
    expect(raisedOf(decode(IZAR))).toEqual([['OTHER', 'The meter reports meter_blocked, underflow (wmbusmeters status).']]);
    expect(raisedOf(decode(IZAR_MQTT))).toEqual([]);
    expect(clearedOf(decode(IZAR_MQTT))).toHaveLength(6);
  });

  it('settles no alarm when the telegram has no status at all', () => {
    const decoded = decode(IPERL);
    expect(decoded.kind === 'uplink' && decoded.uplink.alarms).toEqual([]);
  });

  it.each([
    ['total_l', '{"id":"12345678","total_l":6408,"timestamp":"2024-05-01T10:00:00Z"}', 6408, 'L'],
    ['total_gal', '{"id":"12345678","total_gal":"12.5","timestamp":"2024-05-01T10:00:00Z"}', '12.5', 'gal'],
    ['total_ft3', '{"id":"12345678","total_ft3":3,"timestamp":"2024-05-01T10:00:00Z"}', 3, 'ft³'],
  ])('takes %s in its unit when there is no total_m3', (_field, body, value, unit) => {
    const decoded = decode(body);
    expect(decoded.kind === 'uplink' && decoded.uplink.readings).toEqual([{ read_at: '2024-05-01T10:00:00Z', value, channel: 1, unit }]);
  });

  it.each([
    ['not JSON', 'total_m3=6.4', 'body is not valid UTF-8 JSON'],
    ['an array', '[1]', 'body must be a JSON object'],
    [
      'no register',
      '{"id":"12345678","timestamp":"2024-05-01T10:00:00Z","target_m3":1}',
      'no register value: the telegram has no total_m3 (or total_<unit>) field',
    ],
    ['a null register', '{"id":"12345678","timestamp":"2024-05-01T10:00:00Z","total_m3":null}', 'total_m3: no register value'],
    ['a wrong type', '{"id":"12345678","timestamp":"2024-05-01T10:00:00Z","total_m3":true}', 'total_m3: must be a number, not a boolean'],
    ['a negative register', '{"id":"12345678","timestamp":"2024-05-01T10:00:00Z","total_m3":-1}', 'total_m3: must be a number >= 0 and < 1000000000000000'],
    [
      'an unparsable timestamp',
      '{"id":"12345678","timestamp":"yesterday","total_m3":1}',
      'timestamp: "yesterday" must be an RFC 3339 timestamp with Z or an offset',
    ],
    [
      'a date that does not exist',
      '{"id":"12345678","timestamp":"2024-02-30T10:00:00Z","total_m3":1}',
      'timestamp: "2024-02-30T10:00:00Z" is not a real date and time',
    ],
    ['no timestamp', '{"id":"12345678","total_m3":1}', 'timestamp: is required'],
    ['no id', '{"timestamp":"2024-05-01T10:00:00Z","total_m3":1}', 'id: is required (the meter id wmbusmeters prints)'],
    ['a bad id', '{"id":"1234","timestamp":"2024-05-01T10:00:00Z","total_m3":1}', 'id: must be the meter\'s 8-digit wM-Bus id, not "1234"'],
  ])('refuses %s with its reason', (_case, body, reason) => {
    expect(decode(body)).toEqual({ kind: 'invalid', reason });
  });
});
