import type { MigrationInterface, QueryRunner } from 'typeorm';
import { quoteIdentifier } from './ensure-database';

/** The first migration of every service: the schema it owns. */
export function createSchemaMigration(schema: string, timestamp = 1_763_700_000_000): new () => MigrationInterface {
  const name = `CreateSchema${schema[0].toUpperCase()}${schema.slice(1)}${timestamp}`;
  const migration = class implements MigrationInterface {
    name = name;
    async up(runner: QueryRunner) {
      await runner.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
    }
    async down(runner: QueryRunner) {
      await runner.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
    }
  };
  Object.defineProperty(migration, 'name', { value: name });
  return migration;
}
