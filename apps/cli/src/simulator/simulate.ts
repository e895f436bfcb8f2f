import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { loadConfig } from '@meter/config';
import { isValidTimeZone } from '@meter/consumption';
import { BusNames, MAX_READINGS_PER_MESSAGE, ORG_ID, platformStreams } from '@meter/contracts';
import { connectNats, ensureStream } from '@meter/messaging';
import { Progress } from '../progress';
import { integerOption, UsageError } from '../usage';
import { plannedReadings, publishSimulatedMeters, type SimulationPlan } from './publish-simulated-meters';

/** The `simulate` command's flags, as given. */
export interface SimulateFlags {
  org: string;
  meters: string;
  days: string;
  interval: string;
  firstId: string;
  timeZone: string;
  perMessage: string;
  seed: string;
  leak: string;
  burst: string;
  silent: string;
}

/** `cli simulate`: publishes the meters with progress on stderr, then prints its summary as one JSON object. */
export async function simulate(flags: SimulateFlags): Promise<void> {
  const options = parseOptions(flags);
  const config = loadConfig();
  const bus = new BusNames(config.BUS_PREFIX);
  const plan: SimulationPlan = { ...options, pricePerUnit: 1.85, now: Date.now() };
  const progress = new Progress('simulate', plannedReadings(plan), 'readings acknowledged by JetStream');
  const nc = await connectNats(config.NATS_URL, 'cli-simulate');
  let summary;
  try {
    // Normally the ingest service has declared it; declaring again is harmless and lets readings wait for ingest.
    await ensureStream(await jetstreamManager(nc), platformStreams(bus).readings);
    progress.start(`publishing ${options.meters} meters to ${bus.subject('meter.readings.>')}`);
    summary = await publishSimulatedMeters(jetstream(nc), bus, plan, (n) => progress.set(n));
    progress.finish(`${summary.messages} messages`);
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
}

function parseOptions(flags: SimulateFlags): Omit<SimulationPlan, 'pricePerUnit' | 'now'> {
  if (!ORG_ID.test(flags.org)) throw new UsageError('--org must be an organization id of 1..64 characters [A-Za-z0-9_-]');
  if (!isValidTimeZone(flags.timeZone)) throw new UsageError('--time-zone must be an IANA time zone name');
  const meters = integerOption(flags.meters, '--meters', 1, 100_000);
  const anomalies = {
    leak: integerOption(flags.leak, '--leak', 0, meters),
    burst: integerOption(flags.burst, '--burst', 0, meters),
    silent: integerOption(flags.silent, '--silent', 0, meters),
  };
  if (anomalies.leak + anomalies.burst + anomalies.silent > meters) throw new UsageError('--leak, --burst and --silent together must not exceed --meters');
  return {
    anomalies,
    orgId: flags.org,
    meters,
    days: integerOption(flags.days, '--days', 1, 3650),
    intervalMs: interval(flags.interval),
    firstId: integerOption(flags.firstId, '--first-id', 1, 2 ** 52),
    zone: flags.timeZone,
    perMessage: integerOption(flags.perMessage, '--per-message', 1, MAX_READINGS_PER_MESSAGE),
    seed: integerOption(flags.seed, '--seed', 0, 2 ** 31),
  };
}

function interval(raw: string): number {
  const match = /^(\d{1,4})(m|h)$/.exec(raw);
  const ms = match ? Number(match[1]) * (match[2] === 'h' ? 3600_000 : 60_000) : 0;
  if (ms < 60_000 || ms > 24 * 3600_000) throw new UsageError('--interval must be minutes or hours such as 15m or 1h, from 1m to 24h');
  return ms;
}
