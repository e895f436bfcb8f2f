/** Page size from `limit`, else `ipp`, else the default. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;
