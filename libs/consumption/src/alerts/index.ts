export * from './episode-codes';
export * from './day-alert-codes';
