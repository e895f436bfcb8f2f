import { describe, expect, it } from 'vitest';
import { nextScheduledInstant, readRunRange } from './run-range';

const NOW = Date.parse('2026-03-10T12:00:00Z');

describe('readRunRange', () => {
  it('defaults to yesterday in the zone', () => {
    expect(readRunRange(undefined, NOW, 'UTC')).toEqual({ ok: true, value: { from: '2026-03-09', to: '2026-03-09' } });
    expect(readRunRange({}, Date.parse('2026-03-10T23:30:00Z'), 'Asia/Kolkata')).toEqual({ ok: true, value: { from: '2026-03-10', to: '2026-03-10' } });
  });

  it('takes a range up to today', () => {
    expect(readRunRange({ from: '2026-03-01', to: '2026-03-10' }, NOW, 'UTC')).toEqual({ ok: true, value: { from: '2026-03-01', to: '2026-03-10' } });
  });

  it.each([
    [{ from: '2026-03-05', to: '2026-03-04' }, 'from'],
    [{ from: '2026-03-05', to: '2026-03-11' }, 'to'],
    [{ from: '2025-03-09', to: '2026-03-10' }, 'to'],
    [{ from: '2026-3-5', to: '2026-03-06' }, 'from'],
    [{ from: '2026-03-05' }, 'to'],
    [{ to: '2026-03-05' }, 'from'],
    [{ from: '2026-03-05', to: '2026-03-05', days: 1 }, 'days'],
    ['2026-03-05', 'body'],
  ])('refuses %j naming %s', (body, field) => {
    const result = readRunRange(body, NOW, 'UTC');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.field)).toContain(field);
  });

  it('accepts 366 days, not 367', () => {
    expect(readRunRange({ from: '2025-03-10', to: '2026-03-10' }, NOW, 'UTC').ok).toBe(true);
    expect(readRunRange({ from: '2025-03-09', to: '2026-03-10' }, NOW, 'UTC').ok).toBe(false);
  });
});

describe('nextScheduledInstant', () => {
  it('is later today when the time has not come, else tomorrow', () => {
    expect(new Date(nextScheduledInstant('14:30', 'UTC', NOW)).toISOString()).toBe('2026-03-10T14:30:00.000Z');
    expect(new Date(nextScheduledInstant('02:00', 'UTC', NOW)).toISOString()).toBe('2026-03-11T02:00:00.000Z');
    expect(new Date(nextScheduledInstant('12:00', 'UTC', NOW)).toISOString()).toBe('2026-03-11T12:00:00.000Z');
  });

  it('follows the zone and its DST changes', () => {
    expect(new Date(nextScheduledInstant('02:00', 'Europe/Madrid', Date.parse('2026-03-28T12:00:00Z'))).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(new Date(nextScheduledInstant('03:00', 'Europe/Madrid', Date.parse('2026-03-29T12:00:00Z'))).toISOString()).toBe('2026-03-30T01:00:00.000Z');
    expect(new Date(nextScheduledInstant('02:00', 'Asia/Kathmandu', NOW)).toISOString()).toBe('2026-03-10T20:15:00.000Z');
  });
});
