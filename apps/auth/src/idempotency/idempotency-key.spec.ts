import { describe, expect, it } from 'vitest';
import { ProblemException } from '@meter/http';
import { parseIdempotencyKey, requestFingerprint } from './idempotency-key';

describe('parseIdempotencyKey', () => {
  it('takes 1 to 255 visible ASCII characters', () => {
    expect(parseIdempotencyKey('6f1d2c3b-4a59-4e7f-9d0c-1b2a3f4e5d6c')).toBe('6f1d2c3b-4a59-4e7f-9d0c-1b2a3f4e5d6c');
    expect(parseIdempotencyKey('k'.repeat(255))).toHaveLength(255);
  });

  it.each([[''], ['k'.repeat(256)], ['with space'], ['é'], [['a', 'b']]])('refuses %j naming the header', (header) => {
    expect(() => parseIdempotencyKey(header)).toThrow(ProblemException);
    try {
      parseIdempotencyKey(header);
    } catch (error) {
      expect((error as ProblemException).toProblem('r').errors).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })]);
    }
  });
});

describe('requestFingerprint', () => {
  it('tells bodies and targets apart', () => {
    const base = requestFingerprint('POST', '/integrations/x/runs', { from: '2026-11-01' });
    expect(requestFingerprint('POST', '/integrations/x/runs', { from: '2026-11-01' })).toBe(base);
    expect(requestFingerprint('POST', '/integrations/x/runs', { from: '2026-11-02' })).not.toBe(base);
    expect(requestFingerprint('POST', '/integrations/y/runs', { from: '2026-11-01' })).not.toBe(base);
    expect(requestFingerprint('POST', '/integrations/x/runs', undefined)).not.toBe(base);
  });
});
