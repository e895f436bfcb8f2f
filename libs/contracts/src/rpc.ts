import { z } from 'zod';

/**
 * Request/reply between the platform's processes over core NATS (auth to
 * the vault and to integrations; integration workers to the vault). One
 * wire format for every such service: a JSON request validated by its
 * schema, a reply `{ok: true, result}` or `{ok: false, error: {code, detail}}`,
 * and the sender's deadline in a header.
 */

/**
 * A request's deadline, in milliseconds since the epoch: the answering
 * service refuses work whose deadline has passed, on receipt and again just
 * before it commits, so the sender's timeout (its 503) means "not done".
 * Requests without it have none.
 */
export const RPC_DEADLINE_HEADER = 'Meter-Deadline';

/**
 * The deadline a sender that waits `timeoutMs` for the reply puts on its
 * request: a fifth of the wait (at most 500 ms) is kept back for the reply's
 * way back and for the difference between the two hosts' clocks.
 */
export function rpcDeadline(sentAt: number, timeoutMs: number): number {
  return sentAt + timeoutMs - Math.min(500, Math.floor(timeoutMs / 5));
}

/** The header's value as a time, or undefined for no header; null for a value that is not a time. */
export function readRpcDeadline(value: string | undefined): number | undefined | null {
  if (value === undefined || value === '') return undefined;
  return /^\d{1,15}$/.test(value) ? Number(value) : null;
}

export const fieldError = z.object({ field: z.string(), message: z.string() });

/**
 * Errors every service may answer, whatever the operation: a request outside
 * its schema (`bad_request`), a failure it does not explain (`internal`), and
 * work refused because its deadline passed (`deadline_exceeded`; nothing changed).
 */
export const rpcCommonErrors = [
  z.object({ code: z.literal('bad_request'), detail: z.string() }),
  z.object({ code: z.literal('internal'), detail: z.string() }),
  z.object({ code: z.literal('deadline_exceeded'), detail: z.string() }),
] as const;

export type RpcCommonError = z.infer<(typeof rpcCommonErrors)[number]>;

/** A service's reply to one operation: its result, or one of its typed errors. */
export const rpcReply = <R extends z.ZodType, E extends z.ZodType<{ code: string; detail: string }>>(result: R, error: E) =>
  z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), result }), z.object({ ok: z.literal(false), error })]);
