import { describe, expect, it } from 'vitest';
import { checkOrigin } from './origin';

describe('checkOrigin', () => {
  it.each(['https://portal.example.org', 'http://localhost:5173', 'https://[2001:db8::1]:8443'])('takes %s', (origin) => {
    expect(checkOrigin(origin)).toEqual({ ok: true, origin });
  });

  it.each([
    ['https://portal.example.org/', 'write it https://portal.example.org'],
    ['https://Portal.Example.org', 'write it https://portal.example.org'],
    ['https://portal.example.org:443', 'write it https://portal.example.org'],
    ['https://portal.example.org/widget', 'no path)'],
    ['ftp://files.example.org', 'http or https only'],
    ['portal.example.org', 'no path)'],
    ['*', 'no path)'],
  ])('refuses %s', (text, ending) => {
    const result = checkOrigin(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message.endsWith(ending)).toBe(true);
  });
});
