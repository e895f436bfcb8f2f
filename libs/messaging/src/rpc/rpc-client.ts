import { headers, NoRespondersError, type NatsConnection } from '@nats-io/nats-core';
import type { z } from 'zod';
import { RPC_DEADLINE_HEADER, rpcDeadline } from '@meter/contracts';
import { knownDisconnected } from '../connection-state';

/** No answer in time: no responder, a timeout or a lost connection. The request carried its deadline, so nothing was done. */
export class RpcUnavailable extends Error {
  /** True when the server said at once that nothing subscribes to the subject (no process of that service runs). */
  noResponders = false;
}

/** An answer outside the operation's reply schema. */
export class RpcBadReply extends Error {}

/**
 * Sends one request and waits at most `timeoutMs` for its reply, parsed with
 * the operation's reply schema. The request carries its deadline
 * (`Meter-Deadline`), which the service will not work past, so an
 * `RpcUnavailable` means the work was not done. With the connection known
 * to be lost, it is thrown at once.
 */
export async function requestRpc<S extends z.ZodType>(
  nc: NatsConnection,
  subject: string,
  payload: unknown,
  replySchema: S,
  timeoutMs: number,
): Promise<z.infer<S>> {
  // Lost bus: say so now rather than after the whole timeout (the client would only queue the request).
  if (knownDisconnected(nc)) throw new RpcUnavailable(`${subject} not sent: not connected to NATS`);
  const h = headers();
  h.set(RPC_DEADLINE_HEADER, String(rpcDeadline(Date.now(), timeoutMs)));
  let text: string;
  try {
    text = (await nc.request(subject, JSON.stringify(payload), { timeout: timeoutMs, headers: h })).string();
  } catch (error) {
    const unavailable = new RpcUnavailable(`${subject} unanswered: ${error instanceof Error ? error.message : String(error)}`);
    unavailable.noResponders = error instanceof NoRespondersError || (error instanceof Error && error.cause instanceof NoRespondersError);
    throw unavailable;
  }
  let parsed: z.ZodSafeParseResult<z.infer<S>>;
  try {
    parsed = replySchema.safeParse(JSON.parse(text));
  } catch {
    throw new RpcBadReply(`${subject} answered with something that is not JSON`);
  }
  if (!parsed.success) throw new RpcBadReply(`${subject} answered outside its contract`);
  return parsed.data;
}
