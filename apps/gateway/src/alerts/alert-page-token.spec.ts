import { describe, expect, it } from 'vitest';
import { signPageToken } from '../paging/page-token';
import { signAlertPageToken, verifyAlertPageToken } from './alert-page-token';

const KEYS = [Buffer.alloc(32, 1)];
const CURSOR = { raisedAt: Date.UTC(2026, 10, 21, 10), id: '0b6f3c1e-94d2-8a7b-8e15-3c9d2f7a6b40' };

describe('alert page tokens', () => {
  it('round-trip for the organization they were issued to', () => {
    expect(verifyAlertPageToken(KEYS, 'acme', signAlertPageToken(KEYS, 'acme', CURSOR))).toEqual(CURSOR);
  });

  it.each([
    ['another organization', signAlertPageToken(KEYS, 'other', CURSOR)],
    ['another key', signAlertPageToken([Buffer.alloc(32, 2)], 'acme', CURSOR)],
    ['a device list token', signPageToken(KEYS, 'acme', 5)],
    ['an edited one', signAlertPageToken(KEYS, 'acme', CURSOR).replace(/^./, 'x')],
    ['garbage', 'abc'],
  ])('refuse %s', (_name, token) => {
    expect(verifyAlertPageToken(KEYS, 'acme', token)).toBeUndefined();
  });
});
