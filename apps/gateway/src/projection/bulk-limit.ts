/** projection/bulk takes 1..100 ids. */
export const MAX_BULK_DEVICES = 100;
