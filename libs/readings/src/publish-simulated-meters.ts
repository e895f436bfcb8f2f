import type { JetStreamClient } from '@nats-io/jetstream';
import type { BusNames } from '@meter/contracts';
import { simulatedMeter, simulatedReadings } from './simulated-meter';

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
}

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

/**
 * What collectors would send (contract section 3): each meter's registration
 * (`meter.devices.<org>.<device>`), then its cumulative readings up to now
 * (`meter.readings.<org>.<device>`) in arrays of `perMessage`. Resolves once
 * JetStream has acknowledged every message.
 */
export async function publishSimulatedMeters(js: JetStreamClient, bus: BusNames, plan: SimulationPlan): Promise<SimulationSummary> {
  const to = Math.floor(plan.now / plan.intervalMs) * plan.intervalMs;
  const from = to - plan.days * 24 * 3600_000;
  let readings = 0;
  let messages = 0;
  let lastSequence = 0;
  const inFlight = new Set<Promise<void>>();
  // A publish that fails while nobody awaits it must still fail the run.
  let failure: unknown;
  const send = async (subject: string, payload: unknown) => {
    if (failure !== undefined) throw failure;
    const p: Promise<void> = js.publish(bus.subject(subject), JSON.stringify(payload)).then(
      (ack) => {
        lastSequence = Math.max(lastSequence, ack.seq);
        inFlight.delete(p);
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
    await send(`meter.devices.${plan.orgId}.${deviceId}`, {
      name: `Simulated meter ${deviceId}`,
      time_zone: plan.zone,
      activated_at: new Date(from).toISOString(),
      price_per_unit: plan.pricePerUnit,
    });
    const series = simulatedReadings(simulatedMeter(deviceId, plan.zone, plan.seed), from, to, plan.intervalMs);
    for (let i = 0; i < series.length; i += plan.perMessage) {
      const chunk = series.slice(i, i + plan.perMessage).map((r) => ({ read_at: new Date(r.readAt).toISOString(), value: r.value.toFixed(3) }));
      await send(`meter.readings.${plan.orgId}.${deviceId}`, chunk);
      readings += chunk.length;
    }
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  return { readings, messages, from, to, lastSequence };
}
