import { describe, expect, it } from 'vitest';
import { MAX_READINGS_PER_MESSAGE } from '@meter/contracts';
import { ReadingCoalescer } from './reading-coalescer';

const reading = (i: number) => ({ read_at: `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`, value: i, channel: 1 });

describe('ReadingCoalescer', () => {
  it('publishes what arrives in one turn as one message per subject, and what arrives meanwhile as one more once that is stored', async () => {
    const published: [string, unknown][] = [];
    let release!: () => void;
    const coalescer = new ReadingCoalescer((subject, payload) => {
      published.push([subject, payload]);
      return published.length === 1 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    });
    const first = [coalescer.add('s', [reading(1)]), coalescer.add('s', [reading(2)])];
    const other = coalescer.add('t', [reading(5)]);
    expect(published, 'nothing before the turn ends').toEqual([]);
    await other;
    expect(published).toEqual([
      ['s', [reading(1), reading(2)]],
      ['t', reading(5)],
    ]);
    const later = [coalescer.add('s', [reading(3)]), coalescer.add('s', [reading(4), reading(6)])];
    await new Promise((resolve) => setImmediate(resolve));
    expect(published, 'the busy subject waits for its acknowledgement').toHaveLength(2);
    release();
    await Promise.all([...first, ...later]);
    expect(published[2]).toEqual(['s', [reading(3), reading(4), reading(6)]]);
  });

  it('cuts a batch at MAX_READINGS_PER_MESSAGE', async () => {
    const sizes: number[] = [];
    const coalescer = new ReadingCoalescer((_subject, payload) => {
      sizes.push(Array.isArray(payload) ? payload.length : 1);
      return Promise.resolve();
    });
    await Promise.all(Array.from({ length: MAX_READINGS_PER_MESSAGE + 1 }, (_, i) => coalescer.add('s', [reading(i % 60)])));
    expect(sizes).toEqual([MAX_READINGS_PER_MESSAGE, 1]);
  });

  it('fails every caller whose readings were in a message JetStream did not store', async () => {
    const coalescer = new ReadingCoalescer(() => Promise.reject(new Error('no JetStream')));
    const results = await Promise.allSettled([coalescer.add('s', [reading(1)]), coalescer.add('s', [reading(2)])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
