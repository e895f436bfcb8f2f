import { SetMetadata } from '@nestjs/common';
import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { SecurityRequirementObject } from 'openapi3-ts/oas31';

/**
 * What the API document says of one route: its request schemas and every
 * answer, each with its schema and examples. Method and path come from the
 * route's own decorators, so they are written once.
 */
export interface DocumentedOperation {
  summary: string;
  description: string;
  /** Query, path and header parameters (zod objects) and the body (its zod schema and examples). */
  request?: RouteConfig['request'];
  /** By status; the API's shared answers are added to operations that use its security scheme. */
  responses: Record<number, ResponseConfig>;
  /** `[]` for the one route a client calls without credentials; otherwise the document's scheme. */
  security?: SecurityRequirementObject[];
}

export const DOCUMENTED_OPERATION = 'meter:documented-operation';

/** `@Documented(operation)` on a route handler: its entry in the API document (libs/http/src/openapi). */
export const Documented = (operation: DocumentedOperation) => SetMetadata(DOCUMENTED_OPERATION, operation);
