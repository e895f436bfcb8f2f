import { Injectable } from '@nestjs/common';
import { ProblemException } from './problem';

/**
 * A server a process needs (Postgres, …) whose failure to answer is
 * answered 503 with `Retry-After` rather than 500: the request was fine,
 * the process cannot serve it now, and a retry later will do.
 */
export interface UnavailableDependency {
  /** Stable problem code, e.g. `database_unavailable`. */
  code: string;
  /** Fixed text for the problem's `detail`; never the error's own message. */
  detail: string;
  retryAfterSeconds: number;
  /** True when `error` means the dependency cannot answer now (not that the request was wrong). */
  matches(error: unknown): boolean;
  /** Told of each request refused this way: outage bookkeeping, which logs per outage, never per request. */
  refused?(error: unknown): void;
}

/** What a request refused for want of `dependency` is answered: 503, its code and detail, and `Retry-After`. */
export function unavailableProblem(dependency: Pick<UnavailableDependency, 'code' | 'detail' | 'retryAfterSeconds'>): ProblemException {
  const seconds = dependency.retryAfterSeconds;
  return new ProblemException(503, dependency.code, dependency.detail, { retry_after: seconds }, { 'retry-after': String(seconds) });
}

/** The dependencies the infrastructure modules register; the problem filter consults them for errors it does not know. */
@Injectable()
export class UnavailableDependencies {
  private readonly dependencies: UnavailableDependency[] = [];

  register(dependency: UnavailableDependency): void {
    this.dependencies.push(dependency);
  }

  classify(error: unknown): UnavailableDependency | undefined {
    return this.dependencies.find((d) => d.matches(error));
  }
}
