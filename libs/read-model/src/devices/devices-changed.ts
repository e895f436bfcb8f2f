/**
 * The Postgres NOTIFY channel on which the read model announces, at commit,
 * which organization's devices changed (payload: the org id; empty after a
 * TRUNCATE, meaning every organization). Sent by triggers on ingest.devices
 * (migration DevicesChangedNotify1763800000002), so every writer is covered.
 */
export const DEVICES_CHANGED_CHANNEL = 'ingest_devices_changed';
