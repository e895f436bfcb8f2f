import { Injectable } from '@nestjs/common';
import { withTimeout } from './with-timeout';

export type DependencyState = 'up' | 'down' | 'degraded';

export interface ReadinessCheck {
  /** Names the dependency as an operator knows it: `postgres`, `redis`, `nats`. */
  name: string;
  /** Resolves when the dependency answers; `'degraded'` when the process copes without it. */
  check(): Promise<void | 'degraded'>;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, { status: DependencyState; error?: string }>;
  /** Extra members of the `/readyz` body, e.g. which rate limiter is in use. */
  details: Record<string, unknown>;
}

/** Adds members to the `/readyz` body from the process's current state; `ready` says whether all checks passed. */
export type ReadinessDetails = (ready: boolean) => Record<string, unknown>;

/** Each dependency module registers its check here; `/readyz` asks them all. */
@Injectable()
export class ReadinessRegistry {
  private readonly checks: ReadinessCheck[] = [];
  private readonly describers: ReadinessDetails[] = [];

  register(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  describe(details: ReadinessDetails): void {
    this.describers.push(details);
  }

  async report(timeoutMs = 2000): Promise<ReadinessReport> {
    const results = await Promise.all(
      this.checks.map(async (c) => {
        try {
          const outcome = await withTimeout(c.check(), timeoutMs, c.name);
          return [c.name, { status: outcome === 'degraded' ? 'degraded' : 'up' }] as const;
        } catch (error) {
          return [c.name, { status: 'down', error: error instanceof Error ? error.message : String(error) }] as const;
        }
      }),
    );
    const checks = Object.fromEntries(results) as ReadinessReport['checks'];
    const ready = Object.values(checks).every((c) => c.status !== 'down');
    const details = Object.assign({}, ...this.describers.map((describe) => describe(ready))) as Record<string, unknown>;
    return { ready, checks, details };
  }
}
