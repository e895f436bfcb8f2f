import type { AppConfig } from '@meter/config';
import { platformStreams, type BusNames } from '@meter/contracts';
import type { StreamLimits } from './ensure-stream';

/**
 * The byte limits and discard policies configuration gives the platform's streams, by stream name
 * (docs/operations.md "JetStream limits"). READINGS refuses new messages when full unless told
 * otherwise: publishers then see the error and try again, and nothing already accepted is lost.
 * DEAD_LETTERS drops its oldest: refusing a dead letter would keep its original pending, holding
 * back ingestion. Streams not named here keep whatever limits they have.
 */
export function configuredStreamLimits(
  config: Pick<AppConfig, 'NATS_READINGS_MAX_BYTES' | 'NATS_READINGS_DISCARD' | 'NATS_DEAD_LETTERS_MAX_BYTES'>,
  bus: BusNames,
) {
  const streams = platformStreams(bus);
  return new Map<string, StreamLimits>([
    [streams.readings.name, { maxBytes: config.NATS_READINGS_MAX_BYTES, discard: config.NATS_READINGS_DISCARD }],
    [streams.deadLetters.name, { maxBytes: config.NATS_DEAD_LETTERS_MAX_BYTES, discard: 'old' }],
  ]);
}
