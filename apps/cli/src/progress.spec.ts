import { describe, expect, it } from 'vitest';
import { Progress } from './progress';

describe('Progress', () => {
  it('says what starts, then at most a line a second while it runs, then the total when done', () => {
    const lines: string[] = [];
    let now = 0;
    const progress = new Progress(
      'simulate',
      1_200_000,
      'readings',
      (line) => lines.push(line),
      1000,
      () => now,
    );
    progress.start('publishing 10 meters');
    progress.set(100);
    now = 999;
    progress.set(200_000);
    now = 1000;
    progress.set(300_000);
    now = 1500;
    progress.set(400_000);
    now = 2000;
    progress.advance(200_000, 'half way');
    progress.set(1_200_000);
    progress.finish('120 messages');
    expect(lines).toEqual([
      'simulate: publishing 10 meters: 1,200,000 readings',
      'simulate: 300,000 of 1,200,000 readings (25%)',
      'simulate: 600,000 of 1,200,000 readings (50%), half way',
      'simulate: 1,200,000 of 1,200,000 readings (100%), 120 messages',
    ]);
  });

  it('reports nothing to do as done', () => {
    const lines: string[] = [];
    const progress = new Progress('rebuild', 0, 'devices', (line) => lines.push(line));
    progress.start('every organization');
    progress.finish();
    expect(lines).toEqual(['rebuild: every organization: 0 devices', 'rebuild: 0 of 0 devices (100%)']);
  });
});
