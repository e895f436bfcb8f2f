import { describe, expect, it } from 'vitest';
import { formatBytes, formatDateTime, formatList, localDate, parseCidrList, prettyJson } from './format';

describe('console formatters', () => {
  it('shows times as YYYY-MM-DD HH:MM in the zone asked, and a dash for none', () => {
    expect(formatDateTime('2026-11-27T16:05:59.123Z', 'UTC')).toBe('2026-11-27 16:05');
    expect(formatDateTime('2026-11-27T23:30:00Z', 'Europe/Madrid')).toBe('2026-11-28 00:30');
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('not a date')).toBe('not a date');
  });

  it('shows sizes in decimal units', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1234)).toBe('1.2 kB');
    expect(formatBytes(56_000_000)).toBe('56 MB');
  });

  it('lists, and reads a CIDR list however it is separated', () => {
    expect(formatList([])).toBe('—');
    expect(formatList(['a', 'b'])).toBe('a, b');
    expect(parseCidrList(' 10.0.0.0/8,192.0.2.1\n2001:db8::/32  ')).toEqual(['10.0.0.0/8', '192.0.2.1', '2001:db8::/32']);
    expect(parseCidrList('   ')).toEqual([]);
  });

  it('indents a JSON payload and leaves other text as it is', () => {
    expect(prettyJson('{"type":"webhook.test","data":{"a":1}}')).toBe('{\n  "type": "webhook.test",\n  "data": {\n    "a": 1\n  }\n}');
    expect(prettyJson('not json {')).toBe('not json {');
  });

  it("gives a zone's local date", () => {
    const now = new Date('2026-11-27T23:30:00Z');
    expect(localDate('UTC', 0, now)).toBe('2026-11-27');
    expect(localDate('Europe/Madrid', 0, now)).toBe('2026-11-28');
    expect(localDate('UTC', 1, now)).toBe('2026-11-26');
  });
});
