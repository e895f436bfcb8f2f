import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A credential's expiry, browser origins and devices (contract section 13); none of them limits by default. */
export class CredentialLimits1764800000000 implements MigrationInterface {
  name = 'CredentialLimits1764800000000';

  async up(runner: QueryRunner) {
    await runner.query(`
      ALTER TABLE auth.credentials
        ADD COLUMN expires_at timestamptz,
        ADD COLUMN allowed_origins text[] NOT NULL DEFAULT '{}',
        ADD COLUMN device_ids bigint[]`);
  }

  async down(runner: QueryRunner) {
    await runner.query('ALTER TABLE auth.credentials DROP COLUMN expires_at, DROP COLUMN allowed_origins, DROP COLUMN device_ids');
  }
}
