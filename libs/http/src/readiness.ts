import { Inject, Injectable, Optional } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { Metrics } from './metrics';
import { withTimeout } from './with-timeout';

export type DependencyState = 'up' | 'down' | 'degraded';

/**
 * What a failed check means for the process (docs/operations.md, "Readiness"):
 * `not-ready` when it cannot serve any request without it (`/readyz` 503),
 * `degraded` when it keeps serving, less well (`/readyz` 200 `degraded`).
 */
export type WhenDown = 'not-ready' | 'degraded';

export interface ReadinessCheck {
  /** Names the dependency as an operator knows it: `postgres`, `redis`, `nats`. */
  name: string;
  /** Resolves when the dependency answers; `'degraded'` when it answers but the process copes less well. */
  check(): Promise<void | 'degraded'>;
  /** Default `not-ready`: a process serves nothing without a dependency unless it says otherwise. */
  whenDown?: WhenDown;
}

export interface CheckOutcome {
  status: DependencyState;
  /** Whether the process can serve without this check passing. */
  required: boolean;
  error?: string;
}

export interface ReadinessReport {
  /** False only when a required check failed: the process cannot serve. */
  ready: boolean;
  status: 'ready' | 'degraded' | 'not_ready';
  checks: Record<string, CheckOutcome>;
  /** Required checks that failed. */
  failed: string[];
  /** Checks that failed or said degraded without stopping the process from serving. */
  degraded: string[];
  /** Extra members of the `/readyz` body, e.g. which rate limiter is in use. */
  details: Record<string, unknown>;
}

/** Adds members to the `/readyz` body from the process's current state; `ready` says whether it can serve. */
export type ReadinessDetails = (ready: boolean) => Record<string, unknown>;

/** Each dependency module registers its check here; `/readyz` and the `meter_dependency_up` gauge ask them all. */
@Injectable()
export class ReadinessRegistry {
  private readonly checks: ReadinessCheck[] = [];
  private readonly describers: ReadinessDetails[] = [];

  constructor(@Optional() @Inject(Metrics) metrics?: Metrics) {
    if (!metrics) return;
    const report = () => this.report();
    // Asked at scrape time, so the series follow the dependencies with or without probes.
    new Gauge({
      name: 'meter_dependency_up',
      help: '1 while a readiness check passes, 0 while it fails or reports degraded; required="false" ones only degrade the process',
      labelNames: ['dependency', 'required'] as const,
      registers: [metrics.registry],
      async collect() {
        const { checks } = await report();
        for (const [dependency, outcome] of Object.entries(checks)) {
          this.set({ dependency, required: String(outcome.required) }, outcome.status === 'up' ? 1 : 0);
        }
      },
    });
  }

  register(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  describe(details: ReadinessDetails): void {
    this.describers.push(details);
  }

  async report(timeoutMs = 2000): Promise<ReadinessReport> {
    const results = await Promise.all(
      this.checks.map(async (c): Promise<[string, CheckOutcome]> => {
        const required = (c.whenDown ?? 'not-ready') === 'not-ready';
        try {
          const outcome = await withTimeout(c.check(), timeoutMs, c.name);
          return [c.name, { status: outcome === 'degraded' ? 'degraded' : 'up', required }];
        } catch (error) {
          return [c.name, { status: 'down', required, error: error instanceof Error ? error.message : String(error) }];
        }
      }),
    );
    const checks = Object.fromEntries(results);
    const failed = results.filter(([, c]) => c.required && c.status === 'down').map(([name]) => name);
    const degraded = results.filter(([, c]) => c.status === 'degraded' || (!c.required && c.status === 'down')).map(([name]) => name);
    const ready = failed.length === 0;
    const details = Object.assign({}, ...this.describers.map((describe) => describe(ready))) as Record<string, unknown>;
    return { ready, status: !ready ? 'not_ready' : degraded.length ? 'degraded' : 'ready', checks, failed, degraded, details };
  }
}
