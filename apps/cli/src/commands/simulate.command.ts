import { parseArgs } from 'node:util';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { loadConfigOrExit } from '@meter/config';
import { isValidTimeZone } from '@meter/consumption';
import { BusNames, MAX_READINGS_PER_MESSAGE, ORG_ID, platformStreams } from '@meter/contracts';
import { connectNats, ensureStream } from '@meter/messaging';
import { simulatedMeter, simulatedReadings } from '@meter/readings';
import { UsageError, type Command } from '../command';

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
    const js = jetstream(nc);
    // Normally the ingest service has declared it; declaring again is harmless and lets readings wait for ingest.
    await ensureStream(await jetstreamManager(nc), platformStreams(bus).readings);
    const step = options.intervalMs;
    const to = Math.floor(Date.now() / step) * step;
    const from = to - options.days * 24 * 3600_000;
    let readings = 0;
    let messages = 0;
    const inFlight = new Set<Promise<unknown>>();
    const send = async (subject: string, payload: unknown) => {
      const p = js.publish(bus.subject(subject), JSON.stringify(payload));
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
      messages++;
      if (inFlight.size >= 256) await Promise.race(inFlight);
    };
    try {
      for (let n = 0; n < options.meters; n++) {
        const deviceId = options.firstId + n;
        await send(`meter.devices.${options.org}.${deviceId}`, {
          name: `Simulated meter ${deviceId}`,
          time_zone: options.zone,
          activated_at: new Date(from).toISOString(),
          price_per_unit: 1.85,
        });
        const series = simulatedReadings(simulatedMeter(deviceId, options.zone, options.seed), from, to, step);
        for (let i = 0; i < series.length; i += options.perMessage) {
          const chunk = series.slice(i, i + options.perMessage).map((r) => ({ read_at: new Date(r.readAt).toISOString(), value: r.value.toFixed(3) }));
          await send(`meter.readings.${options.org}.${deviceId}`, chunk);
          readings += chunk.length;
        }
      }
      await Promise.all(inFlight);
    } finally {
      await nc.drain();
    }
    console.log(JSON.stringify({ org_id: options.org, meters: options.meters, first_device_id: options.firstId, readings, messages, from: new Date(from).toISOString(), to: new Date(to).toISOString() }));
  },
};

interface SimulateOptions {
  org: string;
  meters: number;
  days: number;
  intervalMs: number;
  firstId: number;
  zone: string;
  perMessage: number;
  seed: number;
}

function parseOptions(args: string[]): SimulateOptions {
  let values;
  try {
    values = parseArgs({
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
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!values.org || !ORG_ID.test(values.org)) throw new UsageError('--org must be an organization id of 1..64 characters [A-Za-z0-9_-]');
  const zone = values['time-zone'] ?? '';
  if (!isValidTimeZone(zone)) throw new UsageError('--time-zone must be an IANA time zone name');
  return {
    org: values.org,
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
