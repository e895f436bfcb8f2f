import { describe, expect, it } from 'vitest';
import { listedFields, maskValue } from './mask';

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

  it('masks every secret field', () => {
    expect(listedFields({ a: 'secretvalue1234', b: 'ab' })).toEqual({ a: '****234', b: '****' });
    expect(listedFields({ access_key: 'AKIAIOSFODNN7EXAMPLE', secret_key: 'wJalrXUtnFEMI/K7MDENG', client_secret: 'c'.repeat(40) })).toEqual({
      access_key: '****MPLE',
      secret_key: '****DENG',
      client_secret: '****cccc',
    });
  });

  it('lists where an export goes, and as whom, in clear', () => {
    const data = {
      end_point: 'https://s3.eu-west-1.amazonaws.com',
      region: 'eu-west-1',
      tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47',
      client_id: '04b07795-8ddb-461a-bbee-02f9e1bf7b46',
      project_id: 'riverside-water-exports',
    };
    expect(listedFields(data)).toEqual(data);
  });

  it('masks an endpoint stored with a user, a password or a query, which may hold a credential', () => {
    for (const end_point of ['https://AKIA:secret@s3.example.com', 'https://s3.example.com/?X-Amz-Signature=abcdef0123456789']) {
      expect(listedFields({ end_point }).end_point).toBe(maskValue(end_point));
    }
  });

  it('shows a value that is not text as **** instead of failing', () => {
    expect(listedFields({ token: 'secretvalue1234', valueOf: { deep: [1, 2, 3] }, n: 12345678, region: 42 })).toEqual({
      token: '****234',
      valueOf: '****',
      n: '****',
      region: '****',
    });
  });
});
