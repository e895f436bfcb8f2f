import { validationFailed } from '@meter/http';

/** Page size from `limit`, else `ipp`, else the default. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** A page size parameter: an integer from 1 to MAX_PAGE_SIZE, else 400 naming it. */
export function pageSize(raw: unknown, field: string): number {
  if (typeof raw !== 'string' || !/^[0-9]{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE_SIZE) {
    throw validationFailed([{ field, message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` }]);
  }
  return Number(raw);
}
