import { describe, expect, it } from 'vitest';
import { deviceMessage } from './readings';

const errorsOf = (payload: unknown) => {
  const parsed = deviceMessage.safeParse(payload);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('the device message', () => {
  it.each([
    ['m³', 'm³'],
    ['m3', 'm³'],
    ['M3', 'm³'],
    ['L', 'L'],
    ['l', 'L'],
    ['gal', 'gal'],
    ['ft³', 'ft³'],
    ['FT3', 'ft³'],
    ['CCF', 'CCF'],
    ['ccf', 'CCF'],
  ])('reads unit %s as %s', (unit, expected) => {
    expect(deviceMessage.parse({ name: 'x', unit }).unit).toBe(expected);
  });

  it.each(['kWh', 'm2', 'gallons', ''])('refuses unit %j, naming the units', (unit) => {
    expect(errorsOf({ name: 'x', unit })).toEqual(['unit: must be one of m³, L, gal, ft³, CCF']);
  });

  const tariff = {
    currency_symbol: '$',
    standing_charge_per_day: 0.25,
    blocks: [
      { up_to: 10, price_per_unit: 1.5 },
      { up_to: 30, price_per_unit: 2 },
      { up_to: null, price_per_unit: 3.25 },
    ],
  };

  it('takes a tariff of increasing blocks ending with an open one, or null to remove it', () => {
    expect(deviceMessage.parse({ name: 'x', tariff }).tariff).toEqual(tariff);
    expect(deviceMessage.parse({ name: 'x', tariff: { ...tariff, blocks: [{ up_to: null, price_per_unit: 2 }] } }).tariff?.blocks).toHaveLength(1);
    expect(deviceMessage.parse({ name: 'x', tariff: null }).tariff).toBeNull();
    expect(deviceMessage.parse({ name: 'x' }).tariff).toBeUndefined();
  });

  it.each<[string, unknown, string]>([
    ['a closed last block', [{ up_to: 10, price_per_unit: 1 }], 'tariff.blocks.0.up_to: the last block must be open (null)'],
    [
      'an open block before the last',
      [
        { up_to: null, price_per_unit: 1 },
        { up_to: null, price_per_unit: 2 },
      ],
      'tariff.blocks.0.up_to: only the last block may be open (null)',
    ],
    [
      'blocks that do not increase',
      [
        { up_to: 10, price_per_unit: 1 },
        { up_to: 10, price_per_unit: 2 },
        { up_to: null, price_per_unit: 3 },
      ],
      "tariff.blocks.1.up_to: must be above the previous block's up_to",
    ],
    ['no block', [], 'tariff.blocks: Too small: expected array to have >=1 items'],
  ])('refuses a tariff with %s', (_, blocks, error) => {
    expect(errorsOf({ name: 'x', tariff: { ...tariff, blocks } })).toEqual([error]);
  });

  it('takes the alert thresholds; the burst threshold may be removed with null', () => {
    const parsed = deviceMessage.parse({ name: 'x', leak_threshold_per_hour: 0.002, burst_threshold_per_hour: 1.5, no_flow_days: 14, max_silence_hours: 12 });
    expect(parsed).toMatchObject({ leak_threshold_per_hour: 0.002, burst_threshold_per_hour: 1.5, no_flow_days: 14, max_silence_hours: 12 });
    expect(deviceMessage.parse({ name: 'x', burst_threshold_per_hour: null }).burst_threshold_per_hour).toBeNull();
    expect(errorsOf({ name: 'x', burst_threshold_per_hour: 0, no_flow_days: 0, leak_threshold_per_hour: -1 })).toHaveLength(3);
  });

  it('takes radio ids: a DevEUI in lower case, an 8-digit wM-Bus id, null to remove one', () => {
    expect(deviceMessage.parse({ name: 'x', external_ids: { dev_eui: '0004A30B001C0530', wmbus_id: '76348799' } }).external_ids).toEqual({
      dev_eui: '0004a30b001c0530',
      wmbus_id: '76348799',
    });
    expect(deviceMessage.parse({ name: 'x', external_ids: { dev_eui: null } }).external_ids).toEqual({ dev_eui: null });
  });

  it.each<[unknown, string]>([
    [{ dev_eui: '0004A30B001C05' }, 'external_ids.dev_eui: must be 16 hex digits (a LoRaWAN DevEUI)'],
    [{ wmbus_id: '7634879A' }, 'external_ids.wmbus_id: must be 8 digits (a wM-Bus id)'],
    [{ devEui: '0004A30B001C0530' }, 'external_ids: Unrecognized key: "devEui"'],
  ])('refuses radio ids %j', (external_ids, error) => {
    expect(errorsOf({ name: 'x', external_ids })).toEqual([error]);
  });
});
