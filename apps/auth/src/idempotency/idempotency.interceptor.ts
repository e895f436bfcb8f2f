import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { ProblemException } from '@meter/http';
import { ADMIN_KEY, type RequestWithAdmin } from '../sessions/admin-session.guard';
import { parseIdempotencyKey, requestFingerprint } from './idempotency-key';
import { IdempotencyStore } from './idempotency.store';

/** How long a repeat waits for the first request with its key to finish before answering 409. */
const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 100;

/**
 * `Idempotency-Key` on the management API's POST routes (contract section
 * 13): the first request with a key runs and its answer is kept 24 h under
 * the organization; a repeat with the same route and body gets that answer
 * again (`Idempotent-Replayed: true`) and creates nothing, even when it
 * arrives while the first still runs (it waits for it); the same key with
 * another route or body is 422 `idempotency_key_reused`. A request that
 * fails keeps nothing, so its retry runs afresh. Routes without a session
 * (login) take no key: there is no organization to keep it under.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(@Inject(IdempotencyStore) private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<RequestWithAdmin>();
    const header = request.headers['idempotency-key'];
    const admin = request[ADMIN_KEY];
    if (request.method !== 'POST' || header === undefined || !admin) return next.handle();
    const key = parseIdempotencyKey(header);
    const fingerprint = requestFingerprint(request.method, request.url, request.body);
    return from(this.once(admin.orgId, key, fingerprint, http.getResponse<FastifyReply>(), () => lastValueFrom(next.handle(), { defaultValue: undefined })));
  }

  private async once(orgId: string, key: string, fingerprint: string, reply: FastifyReply, run: () => Promise<unknown>): Promise<unknown> {
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      if (await this.store.claim(orgId, key, fingerprint)) {
        let answer: unknown;
        try {
          answer = await run();
        } catch (error) {
          await this.store.release(orgId, key).catch(() => undefined);
          throw error;
        }
        await this.store.complete(orgId, key, answer);
        return answer;
      }
      const held = await this.store.find(orgId, key);
      if (held && held.fingerprint !== fingerprint) {
        throw new ProblemException(422, 'idempotency_key_reused', 'this Idempotency-Key was used with another request; send a new key for a new request');
      }
      if (held?.state === 'completed') {
        void reply.header('idempotent-replayed', 'true');
        return held.response ?? undefined;
      }
      if (Date.now() >= deadline) {
        throw new ProblemException(
          409,
          'idempotency_key_in_progress',
          'the first request with this Idempotency-Key is still running; repeat it in a moment',
          { retry_after: 1 },
          { 'retry-after': '1' },
        );
      }
      // Held by a request still running (or just released or expired: the next claim tells).
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
