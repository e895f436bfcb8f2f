import type { IntegrationsError } from '@meter/contracts';
import { RpcFailure } from '@meter/messaging';

/** A typed failure an operation throws; the caller (auth) maps it to problem+json. */
export class IntegrationsFailure extends RpcFailure<IntegrationsError> {}
