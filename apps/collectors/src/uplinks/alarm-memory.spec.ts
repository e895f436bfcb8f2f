import { describe, expect, it } from 'vitest';
import type { DecodedAlarm } from '../decoders/uplink';
import { AlarmMemory } from './alarm-memory';

const at = '2024-05-01T10:00:00Z';
const dry = (state: 'raised' | 'cleared'): DecodedAlarm => ({ code: 'DRY', state, at });
const leak = (state: 'raised' | 'cleared'): DecodedAlarm => ({ code: 'LEAK', state, at });

describe('AlarmMemory', () => {
  it('states every code of a device once, then only what changed', () => {
    const memory = new AlarmMemory();
    expect(memory.changes('o', 1, [dry('raised'), leak('cleared')])).toEqual([dry('raised'), leak('cleared')]);
    memory.remember('o', 1, [dry('raised'), leak('cleared')]);
    expect(memory.changes('o', 1, [dry('raised'), leak('cleared')])).toEqual([]);
    expect(memory.changes('o', 1, [dry('cleared'), leak('cleared')])).toEqual([dry('cleared')]);
    expect(memory.changes('o', 2, [dry('raised')]), 'another device has its own state').toEqual([dry('raised')]);
  });

  it('states again what was not remembered (a publish that failed)', () => {
    const memory = new AlarmMemory();
    memory.changes('o', 1, [dry('raised')]);
    expect(memory.changes('o', 1, [dry('raised')])).toEqual([dry('raised')]);
  });
});
