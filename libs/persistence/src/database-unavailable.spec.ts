import { QueryFailedError } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('recognises a server that cannot be reached or went away', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']) {
      expect(isDatabaseUnavailable(withCode(code, `connect ${code} 127.0.0.1:5432`)), code).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated due to connection timeout'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
  });

  it('recognises the SQLSTATEs of a server that cannot serve now', () => {
    for (const code of ['08000', '08003', '08006', '08001', '08004', '53000', '53100', '53200', '53300', '57P01', '57P02', '57P03']) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    }
  });

  it('leaves errors about the query or the data alone', () => {
    for (const code of ['23505', '23503', '22P02', '42P01', '42703', '40001', '40P01', '57014', '55P03', 'XX000']) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(false);
    }
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
    // A message alone does not count when the error carries a code of its own.
    expect(isDatabaseUnavailable(withCode('23505', 'Connection terminated by a unique violation?'))).toBe(false);
    for (const value of [undefined, null, 'ECONNREFUSED', 42]) expect(isDatabaseUnavailable(value)).toBe(false);
  });

  it("looks through TypeORM's QueryFailedError, causes and AggregateError", () => {
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], withCode('57P01', 'terminating connection due to administrator command')))).toBe(true);
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], withCode('23505')))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('creating a partition failed', { cause: withCode('ECONNREFUSED') }), { code: '58000' }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], ''))).toBe(true);
  });

  it('stops on a cycle of causes', () => {
    const a: Error & { cause?: unknown } = new Error('a');
    a.cause = a;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});
