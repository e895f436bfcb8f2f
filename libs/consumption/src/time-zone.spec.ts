import { describe, expect, it } from 'vitest';
import { isValidTimeZone, localDateOf, offsetAt, startOfLocalDay } from './time-zone';
import { localDay, localDays } from './local-day';

const at = (iso: string): number => Date.parse(iso);
const HOUR = 3_600_000;

describe('isValidTimeZone', () => {
  it.each([
    ['UTC', true],
    ['Europe/Madrid', true],
    ['Asia/Kathmandu', true],
    ['America/Argentina/Buenos_Aires', true],
    ['Etc/GMT+5', true],
    ['utc', true],
    ['', false],
    [' UTC', false],
    ['+05:30', false],
    ['-03:00', false],
    ['+0530', false],
    ['GMT+5', false],
    ['Europe/Atlantis', false],
    ['Europe/../Madrid', false],
    ['UTC; DROP TABLE', false],
  ])('%j -> %s', (name, valid) => {
    expect(isValidTimeZone(name)).toBe(valid);
  });
});

describe('localDateOf', () => {
  it.each([
    ['2026-03-10T00:00:00.000Z', 'UTC', '2026-03-10'],
    ['2026-03-09T23:59:59.999Z', 'UTC', '2026-03-09'],
    ['2026-03-09T18:29:59.999Z', 'Asia/Kolkata', '2026-03-09'],
    ['2026-03-09T18:30:00.000Z', 'Asia/Kolkata', '2026-03-10'],
    ['2026-03-09T18:14:59.999Z', 'Asia/Kathmandu', '2026-03-09'],
    ['2026-03-09T18:15:00.000Z', 'Asia/Kathmandu', '2026-03-10'],
    ['2026-03-09T14:29:59.999Z', 'Australia/Darwin', '2026-03-09'],
    ['2026-03-09T14:30:00.000Z', 'Australia/Darwin', '2026-03-10'],
    ['2026-03-10T02:59:59.999Z', 'America/Sao_Paulo', '2026-03-09'],
    ['2026-03-10T03:00:00.000Z', 'America/Sao_Paulo', '2026-03-10'],
    ['2026-03-09T10:00:00.000Z', 'Pacific/Kiritimati', '2026-03-10'],
    ['2026-03-10T10:59:59.999Z', 'Pacific/Pago_Pago', '2026-03-09'],
    // A three-digit year does not fit the fast en-US pattern: exercises the formatToParts path.
    ['0999-06-01T12:00:00.000Z', 'UTC', '0999-06-01'],
  ])('%s in %s is %s', (iso, zone, date) => {
    expect(localDateOf(at(iso), zone)).toBe(date);
  });

  it('refuses an unknown zone', () => {
    expect(() => localDateOf(0, 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('offsetAt', () => {
  it.each([
    ['2026-03-10T00:00:00Z', 'Asia/Kathmandu', 5.75 * HOUR],
    ['2026-03-10T00:00:00Z', 'Australia/Darwin', 9.5 * HOUR],
    ['2026-01-10T00:00:00Z', 'America/New_York', -5 * HOUR],
    ['2026-07-10T00:00:00Z', 'America/New_York', -4 * HOUR],
    ['2026-07-10T00:00:00.999Z', 'Europe/Madrid', 2 * HOUR],
  ])('%s %s', (iso, zone, offset) => {
    expect(offsetAt(at(iso), zone)).toBe(offset);
  });
});

describe('startOfLocalDay', () => {
  it.each([
    ['2026-03-10', 'UTC', '2026-03-10T00:00:00.000Z'],
    ['2026-03-10', 'Asia/Kolkata', '2026-03-09T18:30:00.000Z'],
    ['2026-03-10', 'Asia/Kathmandu', '2026-03-09T18:15:00.000Z'],
    ['2026-03-10', 'Australia/Darwin', '2026-03-09T14:30:00.000Z'],
    ['2026-03-10', 'America/Sao_Paulo', '2026-03-10T03:00:00.000Z'],
    ['2026-03-10', 'Pacific/Kiritimati', '2026-03-09T10:00:00.000Z'],
    // New York: DST starts 2026-03-08 02:00, ends 2026-11-01 02:00.
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'],
    ['2026-03-09', 'America/New_York', '2026-03-09T04:00:00.000Z'],
    ['2026-11-01', 'America/New_York', '2026-11-01T04:00:00.000Z'],
    ['2026-11-02', 'America/New_York', '2026-11-02T05:00:00.000Z'],
    // Madrid: DST starts 2026-03-29 02:00, ends 2026-10-25 03:00.
    ['2026-03-29', 'Europe/Madrid', '2026-03-28T23:00:00.000Z'],
    ['2026-03-30', 'Europe/Madrid', '2026-03-29T22:00:00.000Z'],
    ['2026-10-25', 'Europe/Madrid', '2026-10-24T22:00:00.000Z'],
    ['2026-10-26', 'Europe/Madrid', '2026-10-25T23:00:00.000Z'],
    // Midnight does not exist: clocks jump 00:00 -> 01:00, the day starts at the jump.
    ['2026-03-08', 'America/Havana', '2026-03-08T05:00:00.000Z'],
    ['2026-09-06', 'America/Santiago', '2026-09-06T04:00:00.000Z'],
    // Santiago falls back Sun 00:00 -03 -> Sat 23:00 -04: Sunday starts once, at 00:00 -04.
    ['2026-04-05', 'America/Santiago', '2026-04-05T04:00:00.000Z'],
    // Lord Howe moves by 30 minutes: +11 until 2026-04-05 02:00, then +10:30.
    ['2026-04-05', 'Australia/Lord_Howe', '2026-04-04T13:00:00.000Z'],
    ['2026-04-06', 'Australia/Lord_Howe', '2026-04-05T13:30:00.000Z'],
  ])('%s in %s starts at %s', (date, zone, iso) => {
    const start = startOfLocalDay(date, zone);
    expect(new Date(start).toISOString()).toBe(iso);
    expect(localDateOf(start, zone)).toBe(date);
    expect(localDateOf(start - 1, zone)).not.toBe(date);
  });

  it('refuses a malformed date', () => {
    expect(() => startOfLocalDay('2026-02-30', 'UTC')).toThrow(RangeError);
  });
});

describe('localDay', () => {
  it.each([
    ['2026-06-15', 'Europe/Madrid', 24],
    ['2026-03-29', 'Europe/Madrid', 23],
    ['2026-10-25', 'Europe/Madrid', 25],
    ['2026-03-08', 'America/New_York', 23],
    ['2026-11-01', 'America/New_York', 25],
    ['2026-03-07', 'America/Havana', 24],
    ['2026-03-08', 'America/Havana', 23],
    ['2026-09-05', 'America/Santiago', 24],
    ['2026-09-06', 'America/Santiago', 23],
    ['2026-04-04', 'America/Santiago', 25],
    ['2026-04-05', 'Australia/Lord_Howe', 24.5],
    ['2026-03-10', 'Asia/Kathmandu', 24],
    ['2026-03-10', 'Australia/Darwin', 24],
  ])('%s in %s lasts %s h', (date, zone, hours) => {
    const day = localDay(date, zone);
    expect(day.date).toBe(date);
    expect(day.end - day.start).toBe(hours * HOUR);
  });

  it('localDays tiles time: each day ends where the next begins', () => {
    const days = localDays('2026-10-24', '2026-10-26', 'Europe/Madrid');
    expect(days.map((d) => [d.date, new Date(d.start).toISOString(), new Date(d.end).toISOString()])).toEqual([
      ['2026-10-24', '2026-10-23T22:00:00.000Z', '2026-10-24T22:00:00.000Z'],
      ['2026-10-25', '2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z'],
      ['2026-10-26', '2026-10-25T23:00:00.000Z', '2026-10-26T23:00:00.000Z'],
    ]);
    expect(localDays('2026-10-26', '2026-10-24', 'Europe/Madrid')).toEqual([]);
  });
});
