import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { createPeriodicQueue, PeriodicJobs } from './periodic-jobs';

const SCHEMA = 'periodic_jobs_test';
const QUEUE = 'tick';

/** Two replicas of a periodic job on one pg-boss schema, each run longer than the period. */
describe('periodic jobs on pg-boss against Postgres', () => {
  let infra: IsolatedInfra;
  let db: Client;

  beforeAll(async () => {
    infra = await isolatedInfra({ migrate: false });
    db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
    await db.query(PgBoss.getConstructionPlans(SCHEMA));
    await createPeriodicQueue(db, SCHEMA, QUEUE);
  });

  afterAll(async () => {
    await db?.end();
    await infra?.cleanup();
  });

  it('runs one at a time across replicas, every period, with at most one run queued', async () => {
    let active = 0;
    let mostActive = 0;
    const runs: string[] = [];
    const replica = (name: string) =>
      new PeriodicJobs({ databaseUrl: infra.databaseUrl, schema: SCHEMA, applicationName: name, supervise: true, log: { warn: () => undefined } });
    const job = (name: string) => ({
      queue: QUEUE,
      everySeconds: 1,
      firstAfterSeconds: 1,
      expireInSeconds: 60,
      run: async () => {
        active++;
        mostActive = Math.max(mostActive, active);
        runs.push(name);
        await sleep(1200);
        active--;
      },
    });
    const a = replica('a');
    const b = replica('b');
    await Promise.all([a.start([job('a')]), b.start([job('b')])]);
    let mostQueued = 0;
    const until = Date.now() + 7000;
    while (Date.now() < until) {
      const [{ n }] = (await db.query(`SELECT count(*)::int AS n FROM ${SCHEMA}.job WHERE name = $1 AND state = 'created'`, [QUEUE])).rows;
      mostQueued = Math.max(mostQueued, n);
      await sleep(100);
    }
    await Promise.all([a.stop(3000), b.stop(3000)]);
    expect(mostActive).toBe(1);
    expect(mostQueued).toBe(1);
    // 1.2 s runs back to back for about 6 s after the first second (each next one woken on time, or found at a poll).
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(6);
  });

  it('a replica that stops leaves the next run to the other', async () => {
    const runs: string[] = [];
    const replica = (name: string) =>
      new PeriodicJobs({ databaseUrl: infra.databaseUrl, schema: SCHEMA, applicationName: name, supervise: true, log: { warn: () => undefined } });
    const job = (name: string) => ({ queue: QUEUE, everySeconds: 1, firstAfterSeconds: 1, expireInSeconds: 60, run: async () => void runs.push(name) });
    const a = replica('a');
    await a.start([job('a')]);
    await sleep(2500);
    await a.stop(2000);
    const b = replica('b');
    await b.start([job('b')]);
    const before = runs.length;
    // A run about every second (b is woken on time, or polls every 0.5 s): at least 2 in 4.5 s on a busy machine.
    await sleep(4500);
    await b.stop(2000);
    expect(before).toBeGreaterThanOrEqual(1);
    expect(runs.slice(before).filter((r) => r === 'b').length).toBeGreaterThanOrEqual(2);
  });
});
