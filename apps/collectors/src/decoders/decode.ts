import type { CollectorFormat } from '@meter/contracts';
import { decodeChirpstack } from './chirpstack';
import { decodeNative } from './native';
import { decodeTtn } from './ttn';
import type { Decoded, UplinkInput } from './uplink';
import { decodeWmbusmeters } from './wmbusmeters';

const DECODERS: Record<CollectorFormat, (input: UplinkInput) => Decoded> = {
  native: decodeNative,
  wmbusmeters: decodeWmbusmeters,
  chirpstack: decodeChirpstack,
  ttn: decodeTtn,
};

/** One uplink in the credential's format; never throws. */
export function decodeUplink(input: UplinkInput): Decoded {
  return DECODERS[input.format](input);
}

const TOPICS: Record<CollectorFormat, RegExp> = {
  native: /^(readings|alarms)\/[^/]+$/,
  // wmbusmeters publishes wherever its MQTT shell command says (wmbusmeters/<name> by default).
  wmbusmeters: /^(?!\$).+$/,
  chirpstack: /^application\/[^/]+\/device\/[^/]+\/event\/[^/]+$/,
  ttn: /^v3\/[^/]+\/devices\/[^/]+\/[^/]+(\/[^/]+)?$/,
};

/** Whether an MQTT topic is one the credential's format publishes on (docs/collectors.md, "Topics"). */
export function topicAllowed(format: CollectorFormat, topic: string): boolean {
  return TOPICS[format].test(topic);
}

/** The topics of a format, for refusals and docs. */
export const TOPIC_PATTERNS: Record<CollectorFormat, string> = {
  native: 'readings/<device_id> or alarms/<device_id>',
  wmbusmeters: 'any topic (wmbusmeters/<name> by default)',
  chirpstack: 'application/+/device/+/event/+',
  ttn: 'v3/+/devices/+/up (and its other v3/+/devices/+/... topics)',
};
