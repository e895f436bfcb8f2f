import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import type { PoolClient } from 'pg';
import { DataSource, type QueryRunner } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { localDay, type LocalDay } from '@meter/consumption';
import { EXPORT_COLUMNS, type BusNames, type ExportManifest, type ExportRun } from '@meter/contracts';
import { BUS, NATS } from '@meter/messaging';
import { exportDayDecimalPlaces, streamExportDay } from '@meter/read-model';
import { CONTENT_TYPES, rowEncoder } from './encoders/format-encoder';
import { dayKeys } from './export-keys';
import { ExportMetrics } from './export-metrics';
import { ExportOutboxRelay } from './export-outbox-relay';
import { findIntegration, type IntegrationRecord } from './export-store';
import type { Attempt, DayJob } from './export-jobs';
import { exportRow } from './export-row';
import { dayAttemptFailed, dayWritten, lastDayError, lockRun, startDay, type DayContext, type RunError } from './run-ledger';
import { StorageFailure, type Destination } from './storage/destination';
import { openDestination } from './storage/open-destination';
import { openStorageIdentity, VaultIdentityFailure } from './vault-identity';

/** Rows read from the cursor (and encoded) at a time. */
const BATCH_ROWS = 2000;

/** Advisory lock keys: the organization's exports (shared) against its change-log pruning (exclusive), and one exporter per (integration, day). */
export const organizationExportLock = (orgId: string) => `export-org:${orgId}`;
const dayExportLock = (integrationId: string, date: string) => `export-day:${integrationId}:${date}`;

/** A run's error for what an attempt threw: the contract's code and words for people, never a secret. */
export function runErrorOf(error: unknown): RunError {
  if (error instanceof StorageFailure) return { code: error.code, message: error.message };
  if (error instanceof VaultIdentityFailure) {
    return { code: error.code === 'vault_unavailable' ? 'internal' : error.code, message: error.message };
  }
  return { code: 'internal', message: 'the export failed inside the platform; it is retried, and the operators have the details' };
}

/**
 * Exports one local day of one run: opens the storage identity from the
 * vault, reads the organization's fleet for that day through a cursor inside
 * one REPEATABLE READ snapshot, encodes and uploads it as it goes, then the
 * manifest, then records the day (file, snapshot) and, if it was the run's
 * last, the run's end and event. A (integration, day) is exported by one
 * process at a time, whatever the replicas.
 */
@Injectable()
export class DayExporter {
  private readonly logger = new Logger('exports');

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ExportMetrics) private readonly metrics: ExportMetrics,
    @Inject(ExportOutboxRelay) private readonly relay: ExportOutboxRelay,
  ) {}

  /** One attempt of a day job; throws to have the queue retry it (not on the last attempt, nor for a missing vault entry: those fail the day). */
  async run(job: DayJob, attempt: Attempt): Promise<void> {
    const day = await this.dataSource.transaction((manager) => startDay(manager, job.run_id, job.date));
    if (!day) return;
    const integration = await findIntegration(this.dataSource, day.orgId, day.integrationId);
    if (!integration) return;
    const stopTimer = this.metrics.dayDuration.startTimer();
    try {
      const finished = await this.exportDay(integration, day);
      stopTimer();
      this.metrics.days.inc({ outcome: 'succeeded' });
      this.finished(finished);
    } catch (error) {
      const runError = runErrorOf(error);
      // A missing vault entry stays missing: retrying would only delay the run's failure.
      const final = attempt.final || runError.code === 'vault_entry_missing';
      this.metrics.failures.inc({ code: runError.code });
      this.metrics.days.inc({ outcome: final ? 'failed' : 'retried' });
      // Name and code only: an error's message could quote what it choked on.
      this.logger.warn(
        `export of ${day.date} for integration ${day.integrationId} (run ${day.runId}), attempt ${attempt.number}: ${runError.code}: ${runError.message}` +
          (runError.code === 'internal' && !(error instanceof VaultIdentityFailure) ? ` [${describe(error)}]` : ''),
      );
      const finished = await this.dataSource.transaction(async (manager) => {
        if (!(await lockRun(manager, day.runId))) return undefined;
        return dayAttemptFailed(manager, day.runId, day.date, runError, final);
      });
      this.finished(finished);
      if (!final) throw new Error(`export attempt ${attempt.number} failed: ${runError.code}`);
    }
  }

  /** The queue's dead letter: a day whose last attempt timed out (its process died) fails now, with its last error if it had one. */
  async deadLetter(job: DayJob): Promise<void> {
    const finished = await this.dataSource.transaction(async (manager) => {
      if (!(await lockRun(manager, job.run_id))) return undefined;
      const error: RunError = (await lastDayError(manager, job.run_id, job.date)) ?? {
        code: 'internal',
        message: `the export's process stopped, or it did not finish within ${this.config.EXPORT_DAY_TIMEOUT_SECONDS} s`,
      };
      return dayAttemptFailed(manager, job.run_id, job.date, error, true);
    });
    this.finished(finished);
  }

  private finished(run: ExportRun | undefined) {
    if (!run) return;
    this.metrics.runFinished(run);
    this.relay.nudge();
  }

  private async exportDay(integration: IntegrationRecord, day: DayContext): Promise<ExportRun | undefined> {
    const identity = await openStorageIdentity(
      this.nc,
      this.bus,
      { orgId: integration.orgId, namespace: integration.namespace, type: integration.storageType },
      this.config.VAULT_REQUEST_TIMEOUT_MS,
    );
    const destination = openDestination(integration.storageType, identity, integration.bucket, { gcsApiEndpoint: this.config.GCS_API_ENDPOINT });
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock_shared(hashtextextended($1, 0))', [organizationExportLock(integration.orgId)]);
      await runner.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [dayExportLock(integration.id, day.date)]);
      const written = await this.writeDay(runner, destination, integration, localDay(day.date, integration.timeZone));
      this.metrics.rows.inc(written.rows);
      this.metrics.bytes.inc(written.bytes);
      // A new transaction on the same connection: it sees the other days' commits, and the locks still hold off pruning.
      await runner.startTransaction();
      try {
        if (!(await lockRun(runner, day.runId))) {
          await runner.rollbackTransaction();
          return undefined;
        }
        const finished = await dayWritten(runner, day, written);
        await runner.commitTransaction();
        return finished;
      } catch (error) {
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
      await runner.release();
      destination.close();
    }
  }

  /** The day's data file, then its manifest; returns what the run records. */
  private async writeDay(runner: QueryRunner, destination: Destination, integration: IntegrationRecord, day: LocalDay) {
    const keys = dayKeys(integration.prefix, day.date, integration.format);
    const hash = createHash('sha256');
    let rows = 0;
    let bytes = 0;
    let readFailure: unknown;
    // One snapshot for the whole day: the rows agree with each other and with the snapshot recorded for restatement.
    await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    let snapshot: string;
    try {
      [{ snapshot }] = (await runner.query('SELECT pg_current_snapshot()::text AS snapshot')) as { snapshot: string }[];
      // The runner's own connection, through QueryRunner's public connect(): the cursor must read in this transaction.
      const client = (await runner.connect()) as PoolClient;
      const encoder = rowEncoder(integration.format, { decimalPlaces: await exportDayDecimalPlaces(client, integration.orgId, day.end) });
      const count = (chunks: Buffer[]) => {
        for (const chunk of chunks) {
          hash.update(chunk);
          bytes += chunk.length;
        }
        return chunks;
      };
      async function* chunks(): AsyncGenerator<Buffer> {
        try {
          for await (const batch of streamExportDay(client, integration.orgId, day.start, day.end, BATCH_ROWS)) {
            rows += batch.length;
            yield* count(encoder.write(batch.map((channel) => exportRow(channel, day))));
          }
          yield* count(encoder.end());
        } catch (error) {
          readFailure = error;
          throw error;
        }
      }
      try {
        await destination.upload(keys.data, Readable.from(chunks(), { objectMode: false }), CONTENT_TYPES[integration.format]);
      } catch (error) {
        throw readFailure ?? error;
      }
      await runner.query('COMMIT');
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    const sha256 = hash.digest('hex');
    const manifest: ExportManifest = {
      integration_id: integration.id,
      org_id: integration.orgId,
      date: day.date,
      time_zone: integration.timeZone,
      format: integration.format,
      rows,
      sha256,
      columns: [...EXPORT_COLUMNS],
      generated_at: new Date().toISOString(),
    };
    await destination.put(keys.manifest, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8'), 'application/json');
    return { key: keys.data, rows, bytes, sha256, snapshot, start: day.start, end: day.end };
  }
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return `${error instanceof Error ? error.name : typeof error}${typeof code === 'string' ? ` ${code}` : ''}`;
}
