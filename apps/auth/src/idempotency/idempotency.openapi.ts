import { z } from 'zod';
import { ProblemException, problemResponse, problemThrownBy, RETRY_AFTER_HEADER } from '@meter/http';
import { MAX_IDEMPOTENCY_KEY_LENGTH, parseIdempotencyKey } from './idempotency-key';

/** `Idempotency-Key` and its answers on every POST route with a session (IdempotencyInterceptor). */
export const IDEMPOTENCY_ON_POST = {
  headers: z.object({
    'Idempotency-Key': z
      .string()
      .min(1)
      .max(MAX_IDEMPOTENCY_KEY_LENGTH)
      .optional()
      .meta({
        description:
          'Makes a retry safe: a repeat with the same key, route and body within 24 hours answers the first answer again ' +
          '(with `Idempotent-Replayed: true`) and creates nothing, even while the first is still running; the same key with another body is ' +
          '422 `idempotency_key_reused`. Keys are kept per organization; a request that failed keeps nothing. Up to 255 visible ASCII characters.',
        param: { example: '6f1d2c3b-4a59-4e7f-9d0c-1b2a3f4e5d6c' },
      }),
  }),
  responses: {
    400: problemResponse('`validation_failed`: the request is invalid; `errors` names each field.', {
      idempotency_key: { summary: 'An Idempotency-Key with a space', problem: problemThrownBy(() => parseIdempotencyKey('retry 1')) },
    }),
    409: problemResponse(
      '`idempotency_key_in_progress`: the first request with this key was still running after 10 s; repeat after `Retry-After`.',
      {
        idempotency_key_in_progress: {
          summary: 'The first request with the key still running',
          problem: new ProblemException(
            409,
            'idempotency_key_in_progress',
            'the first request with this Idempotency-Key is still running; repeat it in a moment',
            { retry_after: 1 },
            { 'retry-after': '1' },
          ),
        },
      },
      RETRY_AFTER_HEADER,
    ),
    422: problemResponse('`idempotency_key_reused`: the key was used within 24 h for another route or body.', {
      idempotency_key_reused: {
        summary: 'The key of an earlier request, another body',
        problem: new ProblemException(422, 'idempotency_key_reused', 'this Idempotency-Key was used with another request; send a new key for a new request'),
      },
    }),
  },
};
