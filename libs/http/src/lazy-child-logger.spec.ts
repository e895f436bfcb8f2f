import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyChildLogger } from './lazy-child-logger';
import { REDACTED_PATHS } from './logger';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(JSON.parse(String(chunk)));
      callback();
    },
  });
  const logger = pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, stream);
  return { logger, lines };
}

describe('lazyChildLogger', () => {
  it('makes no child while nothing is logged at an enabled level', () => {
    const { logger, lines } = capture('warn');
    const child = vi.spyOn(logger, 'child');
    const log = lazyChildLogger(logger, { reqId: 'r1' }, {});
    log.info({ a: 1 }, 'below the level');
    log.debug('below the level');
    expect(log.level).toBe('warn');
    expect(log.isLevelEnabled('info')).toBe(false);
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it('logs what the child would, with its bindings and the redaction', async () => {
    const { logger, lines } = capture('info');
    const log = lazyChildLogger(logger, { reqId: 'r2' }, {});
    log.info({ route: '/x', token: 'hunter2' }, 'request completed');
    log.error({ err: new Error('boom') }, 'request failed');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 30, reqId: 'r2', route: '/x', token: '[redacted]', msg: 'request completed' });
    expect(lines[1]).toMatchObject({ level: 50, reqId: 'r2', msg: 'request failed', err: { message: 'boom' } });
    expect(log.bindings()).toEqual({ reqId: 'r2' });
  });

  it('a grandchild keeps both sets of bindings', async () => {
    const { logger, lines } = capture('info');
    lazyChildLogger(logger, { reqId: 'r3' }, {}).child({ step: 'x' }).warn('careful');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]).toMatchObject({ reqId: 'r3', step: 'x', msg: 'careful' });
  });

  it('a level set on it applies to it only', async () => {
    const { logger, lines } = capture('warn');
    const log = lazyChildLogger(logger, { reqId: 'r4' }, {});
    log.level = 'debug';
    log.debug('now visible');
    logger.debug('still hidden');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => l.msg)).toEqual(['now visible']);
  });
});

describe('REDACTED_PATHS', () => {
  it('never logs the bound values of a failed query', async () => {
    const { logger, lines } = capture('info');
    const failed = Object.assign(new Error('duplicate key value violates unique constraint'), {
      query: 'INSERT INTO auth.admins (email) VALUES ($1)',
      parameters: ['alice@example.test'],
    });
    logger.error({ err: failed }, 'request failed');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]).toMatchObject({ err: { message: 'duplicate key value violates unique constraint', query: expect.any(String), parameters: '[redacted]' } });
    expect(JSON.stringify(lines[0])).not.toContain('alice@example.test');
  });
});
