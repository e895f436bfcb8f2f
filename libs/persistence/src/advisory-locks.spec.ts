import { describe, expect, it } from 'vitest';
import { ADVISORY_LOCKS } from './advisory-locks';

describe('ADVISORY_LOCKS', () => {
  it('gives every job its own id, none the read model migration takes (74210002)', () => {
    const ids = Object.values(ADVISORY_LOCKS);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(74_210_002);
  });
});
