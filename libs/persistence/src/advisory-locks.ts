/**
 * The fixed Postgres advisory lock ids of the platform, in one place: every
 * process shares one database, so two jobs given the same id would shut each
 * other out. (Locks keyed by a hashed text, per device or per export day, are
 * not listed; 74210002 is taken by the read model's first migration.)
 */
export const ADVISORY_LOCKS = {
  /** `cli migrate`: one process applies a schema's migrations at a time. */
  migrations: 74_210_001,
  /** Auth's outbox relay to AUTH_EVENTS. */
  authOutbox: 74_210_301,
  /** The vault's audit outbox relay to VAULT_AUDIT. */
  vaultAuditOutbox: 74_210_302,
  /** Ingest's alert outbox relay to OUTBOUND_EVENTS. */
  alertOutbox: 74_210_401,
  /** Ingest's clock check for silent devices (NO_COMMUNICATION). */
  silenceCheck: 74_210_402,
  /** Ingest's backfill of the compact reading store: one backfiller at a time (the periodic job, the CLI). */
  readingDaysBackfill: 74_210_403,
  /** The integrations' export outbox relay to OUTBOUND_EVENTS. */
  exportOutbox: 74_210_501,
  /** The integrations' pruning of old webhook deliveries and events. */
  webhookRetention: 74_210_502,
} as const;
