import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** The authenticated credential behind a gateway request, set by the security pipeline before any controller runs. */
export interface Caller {
  orgId: string;
  credentialId: string;
  accessKey: string;
  type: 'secret' | 'public';
  /** The devices the credential may see; undefined: every device of the organization (device-scope.ts). */
  deviceIds?: ReadonlySet<number>;
}

/** Where the security pipeline leaves the caller on the Fastify request. */
const CALLER_KEY = 'meterCaller';

type RequestWithCaller = FastifyRequest & { [CALLER_KEY]?: Caller };

export function setCaller(request: FastifyRequest, caller: Caller): void {
  (request as RequestWithCaller)[CALLER_KEY] = caller;
}

function callerOf(request: FastifyRequest): Caller | undefined {
  return (request as RequestWithCaller)[CALLER_KEY];
}

/**
 * `@CurrentCaller() caller: Caller` in a controller under `/meter/v1/`.
 * The pipeline rejects unauthenticated requests first, so a missing caller
 * here is a wiring bug, not bad input.
 */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const caller = callerOf(context.switchToHttp().getRequest<FastifyRequest>());
  if (!caller) throw new Error('no authenticated caller on this request; is the route outside /meter/v1/?');
  return caller;
});
