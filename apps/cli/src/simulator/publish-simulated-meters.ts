import type { JetStreamClient } from '@nats-io/jetstream';
import type { BusNames } from '@meter/contracts';
import { BURST_THRESHOLD_PER_HOUR, lastReadingAt, simulatedMeter, simulatedReadings, type MeterAnomaly } from './simulated-meter';

export interface SimulationPlan {
  orgId: string;
  meters: number;
  firstId: number;
  days: number;
  intervalMs: number;
  zone: string;
  perMessage: number;
  seed: number;
  pricePerUnit: number;
  /** The last reading is at `now` rounded down to the interval. */
  now: number;
  /** Meters that leak, burst or go silent, in that order from the first (docs/alerts-and-webhooks.md); none by default. */
  anomalies?: Partial<Record<MeterAnomaly, number>>;
}

/** The anomaly of the plan's n-th meter (0-based), if any. */
export function anomalyOf(plan: Pick<SimulationPlan, 'anomalies'>, n: number): MeterAnomaly | undefined {
  let first = 0;
  for (const kind of ['leak', 'burst', 'silent'] as const) {
    const count = plan.anomalies?.[kind] ?? 0;
    if (n >= first && n < first + count) return kind;
    first += count;
  }
  return undefined;
}

/** Told how many readings JetStream has acknowledged so far. */
export type PublishProgress = (readingsAcknowledged: number) => void;

export interface SimulationSummary {
  readings: number;
  messages: number;
  from: number;
  to: number;
  /** Stream sequence of the last message JetStream acknowledged: everything published is at or below it. */
  lastSequence: number;
}

/** Publishes never wait on more acks than this at once: fast, without flooding the server. */
const MAX_IN_FLIGHT = 256;

/** The span of the simulated readings: the last at `now` rounded down to the interval, the first `days` before it. */
function span(plan: SimulationPlan): { from: number; to: number } {
  const to = Math.floor(plan.now / plan.intervalMs) * plan.intervalMs;
  return { from: to - plan.days * 24 * 3600_000, to };
}

/** How many readings the plan publishes: each meter reads at both ends of the span and every interval between. */
export function plannedReadings(plan: SimulationPlan): number {
  const { from, to } = span(plan);
  let total = 0;
  for (let n = 0; n < plan.meters; n++)
    total += Math.floor((lastReadingAt({ anomaly: anomalyOf(plan, n) }, from, to, plan.intervalMs) - from) / plan.intervalMs) + 1;
  return total;
}

/**
 * What collectors would send (docs/read-model.md): each meter's registration
 * (`meter.devices.<org>.<device>`), then its cumulative readings up to now
 * (`meter.readings.<org>.<device>`) in arrays of `perMessage`. Resolves once
 * JetStream has acknowledged every message.
 */
export async function publishSimulatedMeters(
  js: JetStreamClient,
  bus: BusNames,
  plan: SimulationPlan,
  progress: PublishProgress = () => undefined,
): Promise<SimulationSummary> {
  const { from, to } = span(plan);
  let readings = 0;
  let acknowledged = 0;
  let messages = 0;
  let lastSequence = 0;
  const inFlight = new Set<Promise<void>>();
  // A publish that fails while nobody awaits it must still fail the run.
  let failure: unknown;
  const send = async (subject: string, payload: unknown, count = 0) => {
    if (failure !== undefined) throw failure;
    const p: Promise<void> = js.publish(bus.subject(subject), JSON.stringify(payload)).then(
      (ack) => {
        lastSequence = Math.max(lastSequence, ack.seq);
        inFlight.delete(p);
        if (count > 0) progress((acknowledged += count));
      },
      (error: unknown) => {
        failure ??= error;
        inFlight.delete(p);
      },
    );
    inFlight.add(p);
    messages++;
    if (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
  };
  for (let n = 0; n < plan.meters; n++) {
    const deviceId = plan.firstId + n;
    const anomaly = anomalyOf(plan, n);
    await send(`meter.devices.${plan.orgId}.${deviceId}`, {
      name: `Simulated meter ${deviceId}`,
      time_zone: plan.zone,
      activated_at: new Date(from).toISOString(),
      price_per_unit: plan.pricePerUnit,
      ...(anomaly === 'burst' ? { burst_threshold_per_hour: BURST_THRESHOLD_PER_HOUR } : {}),
    });
    const series = simulatedReadings(simulatedMeter(deviceId, plan.zone, plan.seed, anomaly), from, to, plan.intervalMs);
    for (let i = 0; i < series.length; i += plan.perMessage) {
      const chunk = series.slice(i, i + plan.perMessage).map((r) => ({ read_at: new Date(r.readAt).toISOString(), value: r.value.toFixed(3) }));
      await send(`meter.readings.${plan.orgId}.${deviceId}`, chunk, chunk.length);
      readings += chunk.length;
    }
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  return { readings, messages, from, to, lastSequence };
}
