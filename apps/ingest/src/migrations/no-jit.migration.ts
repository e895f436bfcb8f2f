import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * JIT compilation off for this database. The read model's queries are
 * short index probes, but on freshly loaded partitions (no statistics yet)
 * the planner's estimates cross jit_above_cost and every request then paid
 * 50-100 ms of LLVM compilation (bench:ingest, bulk projection). OLTP
 * queries never gain from JIT. New connections pick the setting up.
 */
export class NoJit1763800000001 implements MigrationInterface {
  name = 'NoJit1763800000001';

  async up(runner: QueryRunner) {
    await runner.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET jit = off', current_database()); END $$`);
  }

  async down(runner: QueryRunner) {
    await runner.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I RESET jit', current_database()); END $$`);
  }
}
