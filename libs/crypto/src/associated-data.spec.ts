import { describe, expect, it } from 'vitest';
import { associatedData } from './associated-data';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('associatedData', () => {
  it('is canonical: key order does not matter', () => {
    expect(text(associatedData({ org: 'o1', id: 'e1', version: 3 }))).toBe('{"id":"e1","org":"o1","version":3}');
    expect(associatedData({ version: 3, id: 'e1', org: 'o1' })).toEqual(associatedData({ org: 'o1', id: 'e1', version: 3 }));
  });

  it('is unambiguous', () => {
    const distinct = [
      associatedData({ org: 'a', id: 'bc' }),
      associatedData({ org: 'ab', id: 'c' }),
      associatedData({ org: 'a,id:bc' }),
      associatedData({ org: 'a', id: 'bc', x: '' }),
      associatedData({ org: 'a', id: 1 }),
      associatedData({ org: 'a', id: '1' }),
      associatedData({ 'org":"a': 'x' }),
    ].map(text);
    expect(new Set(distinct).size).toBe(distinct.length);
  });

  it('rejects values that would collide or are not strings or numbers', () => {
    expect(() => associatedData({ n: Number.NaN })).toThrow(/n must be a string or a finite number/);
    expect(() => associatedData({ n: Infinity })).toThrow();
    expect(() => associatedData({ n: null as unknown as string })).toThrow();
  });
});
