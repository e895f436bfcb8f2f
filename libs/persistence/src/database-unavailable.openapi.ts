import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { unavailableResponse } from '@meter/http';
import { DATABASE_UNAVAILABLE } from './persistence.module';

/**
 * The answer every route of a process with `PersistenceModule` may give while Postgres cannot
 * answer: an API definition's `everyOperation` (docs/api-documents.md).
 */
export const DATABASE_UNAVAILABLE_ANSWERS: Record<number, ResponseConfig> = {
  503: unavailableResponse(
    'Postgres cannot answer now (an outage, a failover); nothing was changed. Retry after `Retry-After` seconds.',
    'The database is unavailable',
    DATABASE_UNAVAILABLE,
  ),
};
