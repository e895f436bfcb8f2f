import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The first KiB of the receiver's last answer to each delivery, which the
 * deliveries list shows beside the payload sent (contract 13: an admin sees
 * what the receiver said without access to its logs).
 */
export class WebhookDeliveryAnswers1764500000010 implements MigrationInterface {
  name = 'WebhookDeliveryAnswers1764500000010';

  async up(runner: QueryRunner) {
    await runner.query(`ALTER TABLE integrations.webhook_deliveries ADD COLUMN IF NOT EXISTS last_response_body text`);
  }

  async down(runner: QueryRunner) {
    await runner.query(`ALTER TABLE integrations.webhook_deliveries DROP COLUMN IF EXISTS last_response_body`);
  }
}
