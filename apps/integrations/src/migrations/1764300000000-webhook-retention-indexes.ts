import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The indexes the delivery log's retention needs (webhooks/delivery-retention.ts). */
const INDEXES = [
  // Finished deliveries by their last change, the order they expire in.
  {
    name: 'webhook_deliveries_finished',
    definition: `integrations.webhook_deliveries ((coalesce(last_attempt_at, created_at))) WHERE status IN ('delivered', 'failed')`,
  },
  // Whether an event is still referenced; also what deleting an event checks for the foreign key.
  { name: 'webhook_deliveries_event', definition: 'integrations.webhook_deliveries (event_id)' },
  // Events by arrival, walked in keyset order.
  { name: 'webhook_events_received', definition: 'integrations.webhook_events (received_at, event_id)' },
];

/**
 * Indexes that make pruning old webhook deliveries and events cheap.
 * Built concurrently: these tables may be large by the time this runs, and a
 * plain build would block the fan-out and the delivery workers meanwhile.
 */
export class WebhookRetentionIndexes1764300000000 implements MigrationInterface {
  name = 'WebhookRetentionIndexes1764300000000';
  // CREATE INDEX CONCURRENTLY cannot run in a transaction.
  transaction = false as const;

  async up(runner: QueryRunner) {
    for (const { name, definition } of INDEXES) {
      // An interrupted concurrent build leaves an invalid index behind, which IF NOT EXISTS would keep: start afresh.
      await runner.query(`DROP INDEX CONCURRENTLY IF EXISTS integrations.${name}`);
      await runner.query(`CREATE INDEX CONCURRENTLY ${name} ON ${definition}`);
    }
  }

  async down(runner: QueryRunner) {
    for (const { name } of INDEXES) await runner.query(`DROP INDEX CONCURRENTLY IF EXISTS integrations.${name}`);
  }
}
