import { describe, expect, it } from 'vitest';
import { maskFields, maskValue } from './mask';

describe('maskValue', () => {
  it('shows at most the last 4 characters and never more than a quarter', () => {
    expect(maskValue('abc')).toBe('****');
    expect(maskValue('abcd')).toBe('****d');
    expect(maskValue('abcdefg')).toBe('****g');
    expect(maskValue('abcdefgh')).toBe('****gh');
    expect(maskValue('abcdefghijklmnop')).toBe('****mnop');
    expect(maskValue('x'.repeat(2000) + 'WXYZ')).toBe('****WXYZ');
  });

  it('never shows more than a quarter of any value', () => {
    for (let length = 0; length <= 40; length += 1) {
      const value = 'v'.repeat(length);
      const shown = maskValue(value).length - 4;
      expect(shown).toBeLessThanOrEqual(Math.min(4, length / 4));
    }
  });

  it('counts characters, so it never splits a surrogate pair', () => {
    expect(maskValue('💧💧💧💧💧💧💧💧')).toBe('****💧💧');
  });

  it('masks every field', () => {
    expect(maskFields({ a: 'secretvalue1234', b: 'ab' })).toEqual({ a: '****234', b: '****' });
  });

  it('shows a value that is not text as **** instead of failing', () => {
    expect(maskFields({ token: 'secretvalue1234', valueOf: { deep: [1, 2, 3] }, n: 12345678 })).toEqual({ token: '****234', valueOf: '****', n: '****' });
  });
});
