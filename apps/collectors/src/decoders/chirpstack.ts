import { jsonObject, isObject } from './json-body';
import { lorawanUplink } from './lorawan';
import { invalid, type Decoded, type UplinkInput } from './uplink';

/**
 * A ChirpStack v4 integration event (JSON marshaler): over MQTT on
 * `application/<application>/device/<devEui>/event/<event>`, over HTTP with
 * `?event=<event>`. Only `up` carries a reading; other events are
 * acknowledged and ignored. `deviceInfo.devEui`, `time` (else the receive
 * time), the register from the codec's `object`.
 */
export function decodeChirpstack(input: UplinkInput): Decoded {
  const event = input.topic !== undefined ? input.topic.split('/')[5] : (input.event ?? 'up');
  if (event !== 'up') return { kind: 'ignored', reason: `ChirpStack event ${event} carries no reading` };
  const body = jsonObject(input.body);
  if (!body.ok) return invalid(body.reason);
  const deviceInfo = body.value.deviceInfo;
  if (!isObject(deviceInfo)) return invalid('deviceInfo: is required (a ChirpStack v4 up event)');
  return lorawanUplink(deviceInfo.devEui, body.value.object, 'object', { value: body.value.time, field: 'time' }, input.receivedAt, input.mapping);
}
