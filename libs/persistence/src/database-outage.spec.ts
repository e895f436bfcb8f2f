import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DatabaseOutage } from './database-outage';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('DatabaseOutage', () => {
  let lines: string[];
  let up: boolean;
  let probes: number;
  let outage: DatabaseOutage;

  beforeEach(() => {
    vi.useFakeTimers();
    lines = [];
    up = false;
    probes = 0;
    outage = new DatabaseOutage({
      log: { warn: (message) => lines.push(message) },
      probe: async () => {
        probes += 1;
        if (!up) throw refused();
      },
      probeIntervalMs: 1000,
      now: () => Date.now(),
    });
  });

  afterEach(() => {
    outage.stop();
    vi.useRealTimers();
  });

  it('logs one line when an outage starts and one when the probe finds the database again, however many failures', async () => {
    for (let i = 0; i < 500; i++) expect(outage.report(refused())).toBe(true);
    expect(outage.active).toBe(true);
    expect(lines).toEqual(['Postgres unavailable: connect ECONNREFUSED 127.0.0.1:5432; what needs it fails (HTTP 503) until it answers again']);

    await vi.advanceTimersByTimeAsync(3000);
    expect(probes).toBe(3);
    expect(lines).toHaveLength(1);

    up = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(outage.active).toBe(false);
    expect(lines[1]).toBe('Postgres available again after 4 s; 500 operations failed meanwhile');

    // No probing between outages; the next one is logged afresh.
    await vi.advanceTimersByTimeAsync(5000);
    expect(probes).toBe(4);
    outage.report(new Error('Connection terminated unexpectedly'));
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^Postgres unavailable: Connection terminated unexpectedly/);
  });

  it('ignores errors that are not about reaching the database', () => {
    expect(outage.report(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(outage.report(new Error('bug'))).toBe(false);
    expect(outage.active).toBe(false);
    expect(lines).toEqual([]);
  });
});
