import { describe, expect, it } from 'vitest';
import { deviceOfSubject, takeBatch } from './take-batch';

// Items are "<device>:<n>".
const device = (item: string) => item.split(':')[0];

describe('takeBatch', () => {
  it('takes the whole queue when it fits', () => {
    const queue = ['a:1', 'b:1', 'a:2'];
    expect(takeBatch(queue, 3, device)).toEqual(['a:1', 'b:1', 'a:2']);
    expect(queue).toEqual([]);
  });

  it('brings every queued message of a device along and leaves the rest in order', () => {
    const queue = ['a:1', 'b:1', 'c:1', 'a:2', 'd:1', 'b:2', 'e:1', 'c:2'];
    expect(takeBatch(queue, 4, device)).toEqual(['a:1', 'b:1', 'a:2', 'b:2']);
    expect(queue).toEqual(['c:1', 'd:1', 'e:1', 'c:2']);
  });

  it('does not split a device at the batch boundary', () => {
    const queue = ['a:1', 'a:2', 'b:1', 'b:2', 'c:1', 'c:2'];
    expect(takeBatch(queue, 3, device)).toEqual(['a:1', 'a:2']);
    expect(takeBatch(queue, 3, device)).toEqual(['b:1', 'b:2']);
    expect(queue).toEqual(['c:1', 'c:2']);
  });

  it('fills the room a large device leaves with smaller ones', () => {
    const queue = ['a:1', 'b:1', 'b:2', 'b:3', 'b:4', 'c:1', 'd:1'];
    expect(takeBatch(queue, 4, device)).toEqual(['a:1', 'c:1', 'd:1']);
    expect(queue).toEqual(['b:1', 'b:2', 'b:3', 'b:4']);
  });

  it('lets a device with more messages than a batch fill batches by itself, in order', () => {
    const queue = ['a:1', 'a:2', 'a:3', 'b:1', 'a:4', 'a:5'];
    expect(takeBatch(queue, 2, device)).toEqual(['a:1', 'a:2']);
    expect(queue).toEqual(['a:3', 'b:1', 'a:4', 'a:5']);
    expect(takeBatch(queue, 2, device)).toEqual(['a:3', 'a:4']);
    expect(takeBatch(queue, 2, device)).toEqual(['b:1', 'a:5']);
  });

  it('never takes more than the limit, and every message exactly once', () => {
    const queue = Array.from({ length: 1000 }, (_, i) => `${(i * 7919) % 37}:${i}`);
    const all = [...queue];
    const seen: string[] = [];
    while (queue.length > 0) {
      const batch = takeBatch(queue, 50, device);
      expect(batch.length).toBeGreaterThan(0);
      expect(batch.length).toBeLessThanOrEqual(50);
      seen.push(...batch);
    }
    expect(seen.sort()).toEqual(all.sort());
  });

  it('leaves the devices of batches still being written queued, in order', () => {
    const queue = ['a:1', 'b:1', 'a:2', 'c:1'];
    expect(takeBatch(queue, 10, device, new Set(['a']))).toEqual(['b:1', 'c:1']);
    expect(queue).toEqual(['a:1', 'a:2']);
    expect(takeBatch(queue, 10, device, new Set(['a']))).toEqual([]);
    expect(takeBatch(queue, 10, device, new Set())).toEqual(['a:1', 'a:2']);
  });

  it('names a device by the last two tokens of its subject, whatever the kind and prefix', () => {
    expect(deviceOfSubject('bench1.meter.readings.acme.42')).toBe('acme.42');
    expect(deviceOfSubject('meter.devices.acme.42')).toBe('acme.42');
    expect(deviceOfSubject('x')).toBe('x');
  });
});
