/**
 * The alert rules (docs/alerts-and-webhooks.md): pure functions that judge a
 * channel's readings one by one from what the rules remember of it. Only
 * ingest judges; readers see the episodes the rules opened.
 */
export * from './alert-settings';
export * from './channel-state';
export * from './verdict';
export * from './leak';
export * from './burst';
export * from './no-flow';
export * from './no-communication';
export * from './evaluate-readings';
