import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import type { BusNames } from '@meter/contracts';
import { batches, hourlyReadings, type SimulatedMeter } from './simulated-meters';

const DAY = 24 * 3600 * 1000;

/**
 * Registers each meter (`meter.devices.<org>.<device>`) and publishes its
 * hourly readings for `days` days up to `nowMs`, one day per message
 * (`meter.readings.<org>.<device>`, contract section 3), waiting for
 * JetStream's ack of each. Message ids make a retried publish a duplicate
 * JetStream drops. Returns the number of readings published.
 */
export async function publishMeters(nc: NatsConnection, bus: BusNames, orgId: string, meters: SimulatedMeter[], days: number, nowMs: number): Promise<number> {
  const js = jetstream(nc);
  const startMs = nowMs - days * DAY;
  let count = 0;
  for (const meter of meters) {
    await js.publish(
      bus.subject(`meter.devices.${orgId}.${meter.deviceId}`),
      JSON.stringify({
        name: meter.name,
        channels: 1,
        activated_at: new Date(startMs).toISOString(),
        serie: 'water',
        unit: 'm³',
        decimal_places: 3,
        time_zone: meter.timeZone,
        price_per_unit: meter.pricePerUnit,
        currency_symbol: '€',
      }),
      { msgID: `demo-device-${orgId}-${meter.deviceId}` },
    );
    const readings = hourlyReadings(meter, startMs, nowMs);
    for (const [index, day] of batches(readings, 24).entries()) {
      await js.publish(bus.subject(`meter.readings.${orgId}.${meter.deviceId}`), JSON.stringify(day), {
        msgID: `demo-readings-${orgId}-${meter.deviceId}-${index}`,
      });
    }
    count += readings.length;
  }
  return count;
}
