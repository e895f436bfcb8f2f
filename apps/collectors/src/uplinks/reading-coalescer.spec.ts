import { describe, expect, it } from 'vitest';
import { ReadingCoalescer } from './reading-coalescer';

const reading = (i: number) => ({ read_at: `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`, value: i, channel: 1 });

describe('ReadingCoalescer', () => {
  it('publishes an idle subject at once, and what arrives meanwhile as one message once that is stored', async () => {
    const published: [string, unknown][] = [];
    let release!: () => void;
    const coalescer = new ReadingCoalescer((subject, payload) => {
      published.push([subject, payload]);
      return published.length === 1 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    });
    const first = coalescer.add('s', [reading(1)]);
    const later = [coalescer.add('s', [reading(2)]), coalescer.add('s', [reading(3), reading(4)])];
    const other = coalescer.add('t', [reading(5)]);
    await other;
    expect(published).toEqual([
      ['s', reading(1)],
      ['t', reading(5)],
    ]);
    release();
    await Promise.all([first, ...later]);
    expect(published[2]).toEqual(['s', [reading(2), reading(3), reading(4)]]);
  });

  it('fails every caller whose readings were in a message JetStream did not store', async () => {
    const coalescer = new ReadingCoalescer(() => Promise.reject(new Error('no JetStream')));
    const results = await Promise.allSettled([coalescer.add('s', [reading(1)]), coalescer.add('s', [reading(2)])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
