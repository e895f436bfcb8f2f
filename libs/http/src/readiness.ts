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
}

/** Each dependency module registers its check here; `/readyz` asks them all. */
@Injectable()
export class ReadinessRegistry {
  private readonly checks: ReadinessCheck[] = [];

  register(check: ReadinessCheck): void {
    this.checks.push(check);
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
    return { ready: Object.values(checks).every((c) => c.status !== 'down'), checks };
  }
}
