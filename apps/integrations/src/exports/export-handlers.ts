import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import {
  EXPORT_OPERATIONS,
  exportCreateRequest,
  exportDeleteReply,
  exportDeleteRequest,
  exportGetRequest,
  exportGetRunRequest,
  exportIntegrationListReply,
  exportIntegrationReply,
  exportListRequest,
  exportListRunsRequest,
  exportQueueRunRequest,
  exportRunListReply,
  exportRunQueuedReply,
  exportRunReply,
  exportUpdateRequest,
  INTEGRATION_CREATE_INPUT,
  INTEGRATION_UPDATE_INPUT,
  integrationCreateBody,
  integrationUpdateBody,
  type BusNames,
  type ExportStorageType,
} from '@meter/contracts';
import { readInput, type FieldError } from '@meter/http';
import { BUS, NATS, type Deadline } from '@meter/messaging';
import { IntegrationsFailure } from '../rpc/integrations-failure';
import { IntegrationsRpc } from '../rpc/integrations-rpc';
import { checkKey } from './export-keys';
import { ExportRuns } from './export-runs';
import {
  deleteIntegration,
  findIntegration,
  findRun,
  insertIntegration,
  integrationView,
  lastRuns,
  listIntegrations,
  listRuns,
  saveIntegration,
  type IntegrationRecord,
} from './export-store';
import { nextScheduledInstant, readRunRange } from './run-range';
import { StorageFailure } from './storage/destination';
import { openDestination } from './storage/open-destination';
import { openStorageIdentity, VaultIdentityFailure } from './vault-identity';

const notFound = () => new IntegrationsFailure({ code: 'not_found', detail: 'no integration with this id in the organization' });
const invalid = (errors: FieldError[]) =>
  new IntegrationsFailure({ code: 'validation_failed', detail: `invalid ${errors.map((e) => e.field).join(', ')}`, errors });

/**
 * The management API's integration routes (docs/exports.md), answered over
 * NATS for auth: activate (after a check write at the destination), list,
 * read, change, pause and delete integrations; queue runs and read them.
 */
@Injectable()
export class ExportHandlers implements OnApplicationBootstrap {
  constructor(
    @Inject(IntegrationsRpc) private readonly rpc: IntegrationsRpc,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(ExportRuns) private readonly runs: ExportRuns,
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap() {
    this.rpc.serve(EXPORT_OPERATIONS.create, exportCreateRequest, exportIntegrationReply, (r, deadline) => this.create(r.org_id, r.body, deadline));
    this.rpc.serve(EXPORT_OPERATIONS.list, exportListRequest, exportIntegrationListReply, (r) => this.list(r.org_id));
    this.rpc.serve(EXPORT_OPERATIONS.get, exportGetRequest, exportIntegrationReply, (r) => this.get(r.org_id, r.integration_id));
    this.rpc.serve(EXPORT_OPERATIONS.update, exportUpdateRequest, exportIntegrationReply, (r, deadline) =>
      this.update(r.org_id, r.integration_id, r.body, deadline),
    );
    this.rpc.serve(EXPORT_OPERATIONS.delete, exportDeleteRequest, exportDeleteReply, async (r, deadline) => {
      deadline.check();
      if (!(await deleteIntegration(this.dataSource, r.org_id, r.integration_id))) throw notFound();
      return { id: r.integration_id };
    });
    this.rpc.serve(EXPORT_OPERATIONS.queueRun, exportQueueRunRequest, exportRunQueuedReply, (r, deadline) =>
      this.queueRun(r.org_id, r.integration_id, r.body, deadline),
    );
    this.rpc.serve(EXPORT_OPERATIONS.listRuns, exportListRunsRequest, exportRunListReply, async (r) => {
      const integration = await findIntegration(this.dataSource, r.org_id, r.integration_id);
      if (!integration) throw notFound();
      return { runs: await listRuns(this.dataSource, r.org_id, integration.id) };
    });
    this.rpc.serve(EXPORT_OPERATIONS.getRun, exportGetRunRequest, exportRunReply, async (r) => {
      const integration = await findIntegration(this.dataSource, r.org_id, r.integration_id);
      if (!integration) throw notFound();
      const run = await findRun(this.dataSource, r.org_id, integration.id, r.run_id);
      if (!run) throw new IntegrationsFailure({ code: 'not_found', detail: 'no run with this id in the integration' });
      return run;
    });
  }

  private async create(orgId: string, body: unknown, deadline: Deadline) {
    const input = readInput(integrationCreateBody, body, INTEGRATION_CREATE_INPUT);
    if (!input.ok) throw invalid(input.errors);
    const settings = input.value;
    await this.checkDestination(orgId, settings.namespace, settings.storage_type, settings.destination);
    const now = Date.now();
    const record: IntegrationRecord = {
      id: randomUUID(),
      orgId,
      namespace: settings.namespace,
      storageType: settings.storage_type,
      bucket: settings.destination.bucket,
      prefix: settings.destination.prefix,
      format: settings.format,
      timeZone: settings.time_zone,
      scheduleAt: settings.schedule.at,
      status: 'active',
      createdAt: new Date(now),
      nextRunAt: nextScheduledInstant(settings.schedule.at, settings.time_zone, now),
      lastScheduledDate: null,
    };
    deadline.check();
    await insertIntegration(this.dataSource, record);
    return integrationView(record, undefined);
  }

  private async list(orgId: string) {
    const records = await listIntegrations(this.dataSource, orgId);
    const last = await lastRuns(
      this.dataSource,
      orgId,
      records.map((r) => r.id),
    );
    return { integrations: records.map((r) => integrationView(r, last.get(r.id))) };
  }

  private async get(orgId: string, id: string) {
    const record = await findIntegration(this.dataSource, orgId, id);
    if (!record) throw notFound();
    return integrationView(record, (await lastRuns(this.dataSource, orgId, [record.id])).get(record.id));
  }

  private async update(orgId: string, id: string, body: unknown, deadline: Deadline) {
    const existing = await findIntegration(this.dataSource, orgId, id);
    if (!existing) throw notFound();
    const input = readInput(integrationUpdateBody, body, INTEGRATION_UPDATE_INPUT);
    if (!input.ok) throw invalid(input.errors);
    const changes = input.value;
    if (changes.destination) await this.checkDestination(orgId, existing.namespace, existing.storageType, changes.destination);
    deadline.check();
    const record = await this.runs.inTransaction(async (runner) => {
      const current = await findIntegration(runner, orgId, id, true);
      if (!current) throw notFound();
      const next: IntegrationRecord = {
        ...current,
        bucket: changes.destination?.bucket ?? current.bucket,
        prefix: changes.destination?.prefix ?? current.prefix,
        format: changes.format ?? current.format,
        timeZone: changes.time_zone ?? current.timeZone,
        scheduleAt: changes.schedule?.at ?? current.scheduleAt,
        status: changes.status ?? current.status,
      };
      // A new time, zone or a resumed schedule runs next at its next occurrence from now (a paused one does not catch up).
      const reschedule =
        next.scheduleAt !== current.scheduleAt || next.timeZone !== current.timeZone || (next.status === 'active' && current.status === 'paused');
      if (reschedule) next.nextRunAt = nextScheduledInstant(next.scheduleAt, next.timeZone, Date.now());
      if (next.status === 'active' && current.status === 'paused') next.lastScheduledDate = null;
      deadline.check();
      await saveIntegration(runner, next);
      return next;
    });
    return integrationView(record, (await lastRuns(this.dataSource, orgId, [record.id])).get(record.id));
  }

  private async queueRun(orgId: string, id: string, body: unknown, deadline: Deadline) {
    const integration = await findIntegration(this.dataSource, orgId, id);
    if (!integration) throw notFound();
    const range = readRunRange(body, Date.now(), integration.timeZone);
    if (!range.ok) throw invalid(range.errors);
    const runId = await this.runs.inTransaction(async (runner) => {
      const run = await this.runs.queue(runner, integration, range.value.from, range.value.to, 'manual');
      deadline.check();
      return run;
    });
    return { id: runId, status: 'queued' as const, from: range.value.from, to: range.value.to };
  }

  /**
   * Activation's proof that the destination takes writes: a small object is
   * written and deleted with the organization's vault entry. The storage's
   * own error code goes in the answer, never a secret.
   */
  private async checkDestination(orgId: string, namespace: string, storageType: ExportStorageType, destination: { bucket: string; prefix: string }) {
    let identity: Record<string, string>;
    try {
      identity = await openStorageIdentity(this.nc, this.bus, { orgId, namespace, type: storageType }, this.config.VAULT_REQUEST_TIMEOUT_MS);
    } catch (error) {
      if (!(error instanceof VaultIdentityFailure)) throw error;
      if (error.code === 'vault_entry_missing') {
        throw invalid([{ field: 'storage_type', message: `the vault has no ${storageType} entry in namespace ${namespace}` }]);
      }
      if (error.code === 'vault_entry_unreadable') {
        throw invalid([{ field: 'storage_type', message: `the vault entry ${storageType} of namespace ${namespace} cannot be opened; replace it` }]);
      }
      throw new IntegrationsFailure({ code: 'vault_unavailable', detail: error.message });
    }
    try {
      const client = openDestination(storageType, identity, destination.bucket, { gcsApiEndpoint: this.config.GCS_API_ENDPOINT });
      try {
        const key = checkKey(destination.prefix);
        await client.put(key, Buffer.from('meter platform destination check\n'), 'text/plain');
        await client.delete(key);
      } finally {
        client.close();
      }
    } catch (error) {
      if (!(error instanceof StorageFailure)) throw error;
      throw new IntegrationsFailure({
        code: 'destination_check_failed',
        detail: `the check write to ${destination.bucket} failed: ${error.message} (${error.code})`,
      });
    }
  }
}
