import { Inject, Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import type { ExportRun } from '@meter/contracts';
import { Metrics } from '@meter/http';

/** The exports on /metrics (docs/exports.md, "Metrics"). */
@Injectable()
export class ExportMetrics {
  readonly runs: Counter<'trigger' | 'status'>;
  readonly days: Counter<'outcome'>;
  readonly failures: Counter<'code'>;
  readonly rows: Counter;
  readonly bytes: Counter;
  readonly dayDuration: Histogram;

  constructor(@Inject(Metrics) metrics: Metrics) {
    const registers = [metrics.registry];
    this.runs = new Counter({
      name: 'meter_export_runs_total',
      help: 'Export runs finished, by trigger and status',
      labelNames: ['trigger', 'status'],
      registers,
    });
    this.days = new Counter({
      name: 'meter_export_days_total',
      help: 'Day exports by outcome: succeeded, retried (an attempt failed, another follows) or failed (the last attempt failed)',
      labelNames: ['outcome'],
      registers,
    });
    this.failures = new Counter({ name: 'meter_export_failures_total', help: 'Failed day export attempts by error code', labelNames: ['code'], registers });
    this.rows = new Counter({ name: 'meter_export_rows_total', help: 'Rows written to data files', registers });
    this.bytes = new Counter({ name: 'meter_export_bytes_total', help: 'Bytes of data files written', registers });
    this.dayDuration = new Histogram({
      name: 'meter_export_day_duration_seconds',
      help: 'Time to export one local day of a fleet (read, encode, upload, manifest)',
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900],
      registers,
    });
  }

  runFinished(run: ExportRun | undefined) {
    if (run) this.runs.inc({ trigger: run.trigger, status: run.status });
  }
}
