import { describe, expect, it } from 'vitest';
import { COLLECTOR_USERNAME, usernameOfPassword } from '@meter/contracts';
import { newCollectorPassword, newCollectorUsername } from './collector-secrets';

describe('collector user names and passwords', () => {
  it('makes distinct user names of the documented shape and passwords that name them', () => {
    const names = new Set(Array.from({ length: 200 }, newCollectorUsername));
    expect(names.size).toBe(200);
    for (const name of names) expect(name).toMatch(COLLECTOR_USERNAME);
    const username = newCollectorUsername();
    const password = newCollectorPassword(username);
    expect(password).toMatch(/^col_[a-z2-7]{16}\.[A-Za-z0-9_-]{43}$/);
    expect(usernameOfPassword(password)).toBe(username);
    expect(usernameOfPassword('col_short.x')).toBeUndefined();
  });
});
