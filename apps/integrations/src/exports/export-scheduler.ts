import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { addDays, localDateOf } from '@meter/consumption';
import { RESTATEMENT_DAYS } from '@meter/contracts';
import { DatabaseOutage, PeriodicWork } from '@meter/persistence';
import { EXPORT_SCHEDULE_QUEUE } from '../migrations/1764900000100-export-schedule-queue';
import { organizationExportLock } from './day-exporter';
import { daysChangedSinceExport, organizationsWithChanges, pruneExportChanges, takeReadingChanges } from './export-changes';
import { ExportMetrics } from './export-metrics';
import { ExportOutboxRelay } from './export-outbox-relay';
import { ExportRuns } from './export-runs';
import { exportedDays, lockDueIntegration, organizationExportedDays, saveIntegration, type IntegrationRecord } from './export-store';
import { nextScheduledInstant } from './run-range';
import { finishRunIfDone, lockRun, runsLeftOpen } from './run-ledger';

/** At most this many integrations are scheduled per tick; the next tick takes the rest. */
const PER_TICK = 200;
/**
 * A tick still running this long is taken for dead (its process died), and
 * the next may start: short, so a killed replica delays the schedule little;
 * a slow tick that is still alive only shares the work, under the row locks.
 */
const TICK_EXPIRE_SECONDS = 60;

/** Groups sorted dates into runs of consecutive days. */
export function consecutiveRanges(dates: readonly string[]): { from: string; to: string }[] {
  const ranges: { from: string; to: string }[] = [];
  for (const date of dates) {
    const last = ranges[ranges.length - 1];
    if (last && addDays(last.to, 1) === date) last.to = date;
    else ranges.push({ from: date, to: date });
  }
  return ranges;
}

/**
 * The nightly schedule. The time of each integration's next scheduled run is
 * a column (`next_run_at`); every EXPORT_SCHEDULE_TICK_SECONDS a tick, a
 * periodic pg-boss job one replica at a time runs (PeriodicJobs), looks for
 * integrations whose time has come and takes each under a row lock (which
 * also keeps a tick taken for dead out of its way), so it is scheduled once.
 * Scheduling queues the previous local day (and any day missed while nothing ran, up to
 * 35 days) and, as restatement runs, every exported day of the last 35 that
 * changed after its export's snapshot. Each tick first takes the read
 * model's new changes (`takeReadingChanges`) and ends by pruning the taken
 * changes no export needs.
 */
@Injectable()
export class ExportScheduler implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('export-schedule');
  private stopped = false;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(ExportRuns) private readonly runs: ExportRuns,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ExportMetrics) private readonly metrics: ExportMetrics,
    @Inject(ExportOutboxRelay) private readonly relay: ExportOutboxRelay,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
    @Inject(PeriodicWork) private readonly periodic: PeriodicWork,
  ) {}

  onModuleInit() {
    this.periodic.register({
      queue: EXPORT_SCHEDULE_QUEUE,
      everySeconds: this.config.EXPORT_SCHEDULE_TICK_SECONDS,
      firstAfterSeconds: 1,
      expireInSeconds: TICK_EXPIRE_SECONDS,
      run: () => this.runTick(),
    });
  }

  /** A tick under way ends after the integration it is at; PeriodicWork waits for it. */
  beforeApplicationShutdown() {
    this.stopped = true;
  }

  private async runTick() {
    try {
      await this.dataSource.transaction((manager) => takeReadingChanges(manager));
      await this.scheduleDue(Date.now());
      await this.finishLeftOpen();
      await this.pruneChanges();
    } catch (error) {
      if (!this.outage.report(error)) this.logger.warn(`schedule tick failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Queues the scheduled and restatement runs of every integration whose time has come. */
  async scheduleDue(now: number): Promise<void> {
    for (let i = 0; i < PER_TICK && !this.stopped; i++) {
      const scheduled = await this.runs.inTransaction(async (runner) => {
        const integration = await lockDueIntegration(runner, now);
        if (!integration) return false;
        await this.scheduleOne(runner, integration, now);
        return true;
      });
      if (!scheduled) return;
    }
  }

  private async scheduleOne(runner: Parameters<Parameters<ExportRuns['inTransaction']>[0]>[0], integration: IntegrationRecord, now: number) {
    // The day before the scheduled time's date: an integration due since yesterday (the process was down) still exports the day it was due for.
    const dueDate = localDateOf(integration.nextRunAt, integration.timeZone);
    const yesterday = addDays(dueDate, -1);
    const earliest = addDays(dueDate, -RESTATEMENT_DAYS);
    const from = integration.lastScheduledDate ? maxDate(addDays(integration.lastScheduledDate, 1), earliest) : yesterday;
    const scheduled = new Set<string>();
    if (from <= yesterday) {
      await this.runs.queue(runner, integration, from, yesterday, 'schedule');
      for (let d = from; d <= yesterday; d = addDays(d, 1)) scheduled.add(d);
    }
    const exported = (await exportedDays(runner, integration.id, earliest)).filter((d) => d.date <= yesterday && !scheduled.has(d.date));
    const changed = await daysChangedSinceExport(
      runner,
      integration.orgId,
      exported.map((d) => ({ key: d.date, start: d.start, end: d.end, snapshot: d.snapshot })),
    );
    for (const range of consecutiveRanges([...changed].sort())) await this.runs.queue(runner, integration, range.from, range.to, 'restatement');
    await saveIntegration(runner, {
      ...integration,
      lastScheduledDate: from <= yesterday ? yesterday : integration.lastScheduledDate,
      nextRunAt: nextScheduledInstant(integration.scheduleAt, integration.timeZone, Math.max(now, integration.nextRunAt)),
    });
    if (changed.size) this.logger.log(`integration ${integration.id}: ${changed.size} exported day(s) changed since; restating`);
  }

  /** Runs all of whose days finished while the run did not (a process died in between): finished now. */
  private async finishLeftOpen() {
    for (const runId of await runsLeftOpen(this.dataSource)) {
      const run = await this.dataSource.transaction(async (manager) => ((await lockRun(manager, runId)) ? finishRunIfDone(manager, runId) : undefined));
      if (run) {
        this.metrics.runFinished(run);
        this.relay.nudge();
      }
    }
  }

  /**
   * Deletes the taken changes no export needs. Under the organization's
   * exclusive export lock (every export holds it shared from before its
   * snapshot until its day is recorded), so no export is between the two.
   */
  private async pruneChanges() {
    const since = addDays(localDateOf(Date.now(), 'UTC'), -(RESTATEMENT_DAYS + 2));
    for (const orgId of await organizationsWithChanges(this.dataSource)) {
      if (this.stopped) return;
      await this.dataSource.transaction(async (manager) => {
        const [{ locked }]: { locked: boolean }[] = await manager.query('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked', [
          organizationExportLock(orgId),
        ]);
        if (!locked) return;
        const exported = await organizationExportedDays(manager, orgId, since);
        await pruneExportChanges(manager, orgId, exported, RESTATEMENT_DAYS + 1);
      });
    }
  }
}

const maxDate = (a: string, b: string) => (a > b ? a : b);
