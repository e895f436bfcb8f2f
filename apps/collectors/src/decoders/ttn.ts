import { jsonObject, isObject } from './json-body';
import { lorawanUplink } from './lorawan';
import { invalid, type Decoded, type UplinkInput } from './uplink';

/**
 * A The Things Stack uplink message, from its webhook or its MQTT server
 * (`v3/<application>@<tenant>/devices/<device>/up`); other messages (joins,
 * downlink events) are acknowledged and ignored. `end_device_ids.dev_eui`,
 * the register from `uplink_message.decoded_payload`, its time from the
 * payload (the device's) or `uplink_message.received_at`.
 */
export function decodeTtn(input: UplinkInput): Decoded {
  if (input.topic !== undefined && input.topic.split('/')[4] !== 'up') return { kind: 'ignored', reason: `topic ${input.topic} carries no uplink` };
  const body = jsonObject(input.body);
  if (!body.ok) return invalid(body.reason);
  const message = body.value;
  if (message.uplink_message === undefined) {
    // The webhook's other message types (join_accept, downlink_*, service_data ...) share the URL when enabled there.
    const kind = Object.keys(message).find((key) => key !== 'end_device_ids' && key !== 'correlation_ids' && key !== 'received_at' && isObject(message[key]));
    if (kind) return { kind: 'ignored', reason: `The Things Stack ${kind} message carries no reading` };
    return invalid('uplink_message: is required (an uplink message of The Things Stack)');
  }
  const uplink = message.uplink_message;
  if (!isObject(uplink)) return invalid('uplink_message: must be an object');
  const ids = message.end_device_ids;
  if (!isObject(ids)) return invalid('end_device_ids: is required');
  return lorawanUplink(
    ids.dev_eui,
    uplink.decoded_payload,
    'uplink_message.decoded_payload',
    { value: uplink.received_at ?? message.received_at, field: 'uplink_message.received_at' },
    input.receivedAt,
    input.mapping,
  );
}
