import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCommand, shellQuote } from '../scripts/demo/shell';
import { batches, DEMO_METERS, hourlyReadings, seededRandom } from '../scripts/demo/simulated-meters';

const DAY = 24 * 3600 * 1000;
const NOW = Date.parse('2026-11-21T15:42:00Z');

describe('simulated meters', () => {
  const meter = DEMO_METERS[0];
  const readings = hourlyReadings(meter, NOW - 100 * DAY, NOW);

  it('gives one reading per hour over 100 days, on whole hours, channel 1', () => {
    expect(readings).toHaveLength(100 * 24 + 1);
    expect(readings[0].read_at).toBe('2026-08-13T15:00:00.000Z');
    expect(readings.at(-1)!.read_at).toBe('2026-11-21T15:00:00.000Z');
    for (const [i, r] of readings.entries()) {
      expect(Date.parse(r.read_at) - Date.parse(readings[0].read_at)).toBe(i * 3600 * 1000);
      expect(r.channel).toBe(1);
      expect(r.value).toMatch(/^\d+\.\d{3}$/);
    }
  });

  it('never lets the register go down, and draws about the daily average', () => {
    const values = readings.map((r) => Number(r.value));
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThanOrEqual(values[i - 1]);
    const perDay = (values.at(-1)! - values[0]) / 100;
    expect(perDay).toBeGreaterThan(meter.dailyAverage * 0.8);
    expect(perDay).toBeLessThan(meter.dailyAverage * 1.2);
  });

  it('draws more in the local morning than at night', () => {
    // Europe/Paris is UTC+1 in November: 07:00-08:00 local is 06:00 UTC.
    const drawnInHourEnding = (utcHour: number) =>
      readings.slice(1).reduce((sum, r, i) => (new Date(r.read_at).getUTCHours() === utcHour ? sum + Number(r.value) - Number(readings[i].value) : sum), 0);
    expect(drawnInHourEnding(7)).toBeGreaterThan(3 * drawnInHourEnding(3));
  });

  it('is the same for the same meter, and differs between meters', () => {
    expect(hourlyReadings(meter, NOW - DAY, NOW)).toEqual(hourlyReadings(meter, NOW - DAY, NOW));
    expect(hourlyReadings(DEMO_METERS[1], NOW - DAY, NOW)).not.toEqual(hourlyReadings(meter, NOW - DAY, NOW));
    const random = seededRandom(7);
    const draws = Array.from({ length: 1000 }, random);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
  });

  it('batches readings into messages of at most a day', () => {
    const days = batches(readings, 24);
    expect(days).toHaveLength(101);
    expect(days.flat()).toEqual(readings);
    expect(Math.max(...days.map((d) => d.length))).toBe(24);
  });
});

describe('the printed curl command', () => {
  const sh = (command: string) => execFileSync('sh', ['-c', command], { encoding: 'utf8' });

  it('quotes words so the shell gives them back unchanged', () => {
    for (const word of ["it's", 'a b', 'SVC-HMAC access_key=sk_live_x signature=ab timestamp=1', '$HOME', '`x`', 'plain']) {
      expect(sh(`printf %s ${shellQuote(word)}`)).toBe(word);
    }
  });

  it('is one pasteable command with the URL and each header as single words', () => {
    const command = curlCommand({
      url: 'http://127.0.0.1:8080/meter/v1/projection?device_id=1001&x=%2C',
      method: 'GET',
      headers: { Authorization: 'SVC-HMAC access_key=sk_live_abc signature=0f timestamp=1763700000' },
    });
    expect(command).toBe(
      "curl -sS 'http://127.0.0.1:8080/meter/v1/projection?device_id=1001&x=%2C' \\\n  -H 'Authorization: SVC-HMAC access_key=sk_live_abc signature=0f timestamp=1763700000'",
    );
    const words = sh(`set -- ${command.replace(/^curl -sS /, '')}; for w in "$@"; do printf '%s\\n' "$w"; done`).trimEnd().split('\n');
    expect(words).toEqual([
      'http://127.0.0.1:8080/meter/v1/projection?device_id=1001&x=%2C',
      '-H',
      'Authorization: SVC-HMAC access_key=sk_live_abc signature=0f timestamp=1763700000',
    ]);
  });
});
