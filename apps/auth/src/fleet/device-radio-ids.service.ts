import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { DataSource } from 'typeorm';
import type { BusNames, DeviceMessage, ExternalIds } from '@meter/contracts';
import { ProblemException, unavailableProblem } from '@meter/http';
import { BUS, JETSTREAM } from '@meter/messaging';
import { findDeviceByRadioId, type FleetDevice } from '@meter/read-model';
import { FleetReadModel } from './fleet-read-model';
import { radioIdsApplied, radioIdsSet, takenRadioIds, withRadioIds } from './radio-ids';

const PUBLISH_TIMEOUT_MS = 5000;
/** How long the answer waits for ingest to apply the device message before answering 202. */
const APPLIED_WAIT_MS = 5000;
const APPLIED_POLL_MS = 50;

export type RadioIdsEdit = { applied: true; device: FleetDevice } | { applied: false; device: FleetDevice };

/**
 * `PATCH /devices/{id}` (docs/collectors.md, "Registering radio ids"): ingest
 * is the one writer of `ingest.devices`, so auth does not write it: it checks
 * the edit against the read model (the device exists in the organization, no
 * other device of it carries the ids), then publishes section 3's device
 * message on `meter.devices.<org>.<id>` (its current name, the radio ids) and
 * waits for the read model to show it.
 */
@Injectable()
export class DeviceRadioIds {
  private readonly logger = new Logger('device-radio-ids');

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(JETSTREAM) private readonly js: JetStreamClient,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(FleetReadModel) private readonly fleet: FleetReadModel,
  ) {}

  async edit(orgId: string, deviceId: number, request: ExternalIds): Promise<RadioIdsEdit> {
    const device = await this.fleet.fleetDevice(orgId, deviceId);
    const holders = await Promise.all(
      radioIdsSet(request).map(async ({ kind, id }) => ({
        kind,
        id,
        holder: (await findDeviceByRadioId(this.dataSource, orgId, { kind, id }))?.deviceId ?? null,
      })),
    );
    const taken = takenRadioIds(deviceId, holders);
    if (taken.length) {
      throw new ProblemException(409, 'external_id_taken', taken.map((e) => `${e.field}: ${e.message}`).join('; '), { errors: taken });
    }
    if (radioIdsApplied(device.externalIds, request)) return { applied: true, device };
    await this.publish(orgId, deviceId, { name: device.name, external_ids: request });
    const deadline = Date.now() + APPLIED_WAIT_MS;
    for (;;) {
      const now = await this.fleet.fleetDevice(orgId, deviceId);
      if (radioIdsApplied(now.externalIds, request)) return { applied: true, device: now };
      if (Date.now() >= deadline) return { applied: false, device: { ...now, externalIds: withRadioIds(now.externalIds, request) } };
      await new Promise((resolve) => setTimeout(resolve, APPLIED_POLL_MS));
    }
  }

  private async publish(orgId: string, deviceId: number, message: DeviceMessage) {
    try {
      // A fresh id: the same edit made again later (after another one) is a new message, not a duplicate.
      await this.js.publish(this.bus.subject(`meter.devices.${orgId}.${deviceId}`), JSON.stringify(message), {
        msgID: randomUUID(),
        timeout: PUBLISH_TIMEOUT_MS,
      });
    } catch (error) {
      this.logger.warn(`device message for ${orgId}/${deviceId} not stored: ${error instanceof Error ? error.message : String(error)}`);
      throw unavailableProblem({ code: 'bus_unavailable', detail: 'the message bus did not store the change; nothing was changed', retryAfterSeconds: 2 });
    }
  }
}
