import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { loadConfigOrExit } from '@meter/config';
import { isValidTimeZone } from '@meter/consumption';
import { BusNames, MAX_READINGS_PER_MESSAGE, ORG_ID, platformStreams } from '@meter/contracts';
import { connectNats, ensureStream } from '@meter/messaging';
import { publishSimulatedMeters, type SimulationPlan } from '@meter/readings';
import { parseFlags, UsageError, type Command } from '../command';

const USAGE =
  '--org ORG_ID [--meters N (10)] [--days D (100)] [--interval 1h|15m|... (1h)] [--first-id ID (1)] ' +
  '[--time-zone IANA (Europe/Madrid)] [--per-message N (100)] [--seed N (1)]';

/** Publishes device registrations, then realistic cumulative readings ending now, as collectors would. */
export const simulateCommand: Command = {
  name: 'simulate',
  summary: 'publish simulated meters and their readings (device registrations, then readings in batches) to NATS',
  usage: USAGE,
  async run(args) {
    const options = parseOptions(args);
    const config = loadConfigOrExit();
    const bus = new BusNames(config.BUS_PREFIX);
    const nc = await connectNats(config.NATS_URL, 'cli-simulate');
    let summary;
    try {
      // Normally the ingest service has declared it; declaring again is harmless and lets readings wait for ingest.
      await ensureStream(await jetstreamManager(nc), platformStreams(bus).readings);
      summary = await publishSimulatedMeters(jetstream(nc), bus, { ...options, pricePerUnit: 1.85, now: Date.now() });
    } finally {
      await nc.drain();
    }
    const { readings, messages, from, to } = summary;
    console.log(
      JSON.stringify({
        org_id: options.orgId,
        meters: options.meters,
        first_device_id: options.firstId,
        readings,
        messages,
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
      }),
    );
  },
};

type SimulateOptions = Omit<SimulationPlan, 'pricePerUnit' | 'now'>;

function parseOptions(args: string[]): SimulateOptions {
  const values = parseFlags({
    args,
    options: {
      org: { type: 'string' },
      meters: { type: 'string', default: '10' },
      days: { type: 'string', default: '100' },
      interval: { type: 'string', default: '1h' },
      'first-id': { type: 'string', default: '1' },
      'time-zone': { type: 'string', default: 'Europe/Madrid' },
      'per-message': { type: 'string', default: '100' },
      seed: { type: 'string', default: '1' },
    },
    strict: true,
  }).values;
  if (!values.org || !ORG_ID.test(values.org)) throw new UsageError('--org must be an organization id of 1..64 characters [A-Za-z0-9_-]');
  const zone = values['time-zone'] ?? '';
  if (!isValidTimeZone(zone)) throw new UsageError('--time-zone must be an IANA time zone name');
  return {
    orgId: values.org,
    meters: integer(values.meters, '--meters', 1, 100_000),
    days: integer(values.days, '--days', 1, 3650),
    intervalMs: interval(values.interval ?? ''),
    firstId: integer(values['first-id'], '--first-id', 1, 2 ** 52),
    zone,
    perMessage: integer(values['per-message'], '--per-message', 1, MAX_READINGS_PER_MESSAGE),
    seed: integer(values.seed, '--seed', 0, 2 ** 31),
  };
}

function integer(raw: string | undefined, name: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw ?? '') || n < min || n > max) throw new UsageError(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

function interval(raw: string): number {
  const match = /^(\d{1,4})(m|h)$/.exec(raw);
  const ms = match ? Number(match[1]) * (match[2] === 'h' ? 3600_000 : 60_000) : 0;
  if (ms < 60_000 || ms > 24 * 3600_000) throw new UsageError('--interval must be minutes or hours such as 15m or 1h, from 1m to 24h');
  return ms;
}
