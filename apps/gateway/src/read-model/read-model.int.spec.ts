import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import {
  consumptionBetween,
  dailyConsumption,
  dataPointDate,
  formatDecimal,
  formatWithUnit,
  intervalsFromReadings,
  lastThreeMonths,
  projectionFromConsumption,
  projectionWindow,
  resolvePeriod,
  roundDecimal,
  sumDays,
  type Interval,
  type Reading,
} from '@meter/consumption';
import { monthToDateConsumption, projectMonth } from '@meter/testing/consumption-oracle';
import { createDataSource } from '@meter/persistence';
import { ensurePartitions, writeBatch, type ReadingRow } from '@meter/ingest';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { DashboardService } from '../dashboard/dashboard.service';
import { HistoryService } from '../history/history.service';
import { MonthProjectionService } from '../projection/month-projection.service';
import { projectionBody } from '../projection/projection-body';
import { FixedClock } from '../clock/clock';
import { DeviceCache } from './device-cache';
import { ReadModel } from './read-model';

const ORG = 'org_rm';
const H = 3600_000;
// "now": 2026-11-21 10:17Z. Readings run from 2026-08-25 (before the 3-month window) to 09:00Z today,
// across the European DST end (2026-10-25) and the US one (2026-11-01).
const NOW = Date.UTC(2026, 10, 21, 10, 17);
const START = Date.UTC(2026, 7, 25, 0, 0);
const ZONES = ['UTC', 'Europe/Madrid', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Adelaide', 'Pacific/Chatham'];
const PERIODS = ['7D', '15D', 'CURRENT_MONTH', '2026-09', '2026-10', '2026-11'];
/** A day's value as the API writes it: "0" for a day the readings do not cover, else 3 decimals. */
const dayValue = (d: { value: number; alerts: { code: string }[] }, factor = 1) =>
  d.alerts.some((a) => a.code === 'NO_DATA') ? '0' : formatDecimal(d.value * factor, 3);

/** Hourly readings with a daily profile, a 3-day gap, a reset and a few late irregular readings. */
function syntheticReadings(): Reading[] {
  const readings: Reading[] = [];
  let value = 1234.5;
  for (let t = START, i = 0; t <= Date.UTC(2026, 10, 21, 9); t += H, i++) {
    if (t >= Date.UTC(2026, 9, 3) && t < Date.UTC(2026, 9, 6, 7)) continue; // gap of 3+ days
    const hour = new Date(t).getUTCHours();
    value += (hour >= 6 && hour <= 9 ? 0.03 : hour >= 18 && hour <= 21 ? 0.025 : 0.004) * (1 + ((i * 37) % 11) / 10);
    if (t === Date.UTC(2026, 10, 10, 13)) value = 0.2; // meter replaced
    readings.push({ readAt: t, value: Math.round(value * 1000) / 1000 });
  }
  readings.push({ readAt: Date.UTC(2026, 10, 15, 12, 20, 30, 500), value: 0 }); // replaced below by a correct late value
  return readings;
}

describe('the read model answers as the consumption library computes', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  let readings: Reading[];
  let intervals: Interval[];
  let history: HistoryService;
  let projections: MonthProjectionService;
  let readModel: ReadModel;

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 4, applicationName: 'rm-test' }).initialize();
    readings = syntheticReadings();
    // the odd reading of 2026-11-15 gets its real value from a later correction
    const before = readings.filter((r) => r.readAt < Date.UTC(2026, 10, 15, 12, 20, 30, 500)).at(-1)!;
    const corrected = { readAt: Date.UTC(2026, 10, 15, 12, 20, 30, 500), value: before.value + 0.001 };
    const rows: ReadingRow[] = readings.map((r, i) => ({ orgId: ORG, deviceId: 7, channel: 1, readAt: r.readAt, value: r.value, seq: i + 1 }));
    const second: ReadingRow[] = rows.map((r) => ({ ...r, channel: 2, value: r.value * 2 }));
    // written in shuffled batches of 500, as late and out-of-order deliveries would
    const all = [...rows, ...second].sort((a, b) => ((a.readAt * 7919) % 1000) - ((b.readAt * 7919) % 1000));
    const known = new Set<number>();
    await ensurePartitions(
      (sql, params) => ds.query(sql, params),
      all.map((r) => r.readAt),
      known,
    );
    for (let i = 0; i < all.length; i += 500) {
      // Without the alert rules: this file checks the days' own alerts (episodes: apps/ingest/src/alerts).
      await ds.transaction(async (m) => void (await writeBatch(m.queryRunner!, all.slice(i, i + 500), [], [], { alertRules: false })));
    }
    await ds.transaction(async (m) =>
      writeBatch(
        m.queryRunner!,
        [
          { orgId: ORG, deviceId: 7, channel: 1, ...corrected, seq: 1_000_000 },
          { orgId: ORG, deviceId: 7, channel: 2, readAt: corrected.readAt, value: corrected.value * 2, seq: 1_000_000 },
        ],
        [
          {
            orgId: ORG,
            deviceId: 7,
            seq: 1_000_001,
            receivedAt: START,
            device: { name: 'Garden', time_zone: 'Europe/Madrid', price_per_unit: 1.75, decimal_places: 3 },
          },
        ],
        [],
        { alertRules: false },
      ),
    );
    readings = readings.map((r) => (r.readAt === corrected.readAt ? corrected : r));
    intervals = intervalsFromReadings(readings);
    readModel = new ReadModel(ds, new DeviceCache());
    const clock = new FixedClock(NOW);
    projections = new MonthProjectionService(readModel, clock);
    history = new HistoryService(readModel, clock);
  }, 120_000);

  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  it('stores exactly the intervals of the library', async () => {
    const stored = (await readModel.history(ORG, 7, START - H, NOW)).intervals;
    expect(stored.get(1)).toEqual(intervals);
    expect(intervals.filter((i) => i.reset)).toHaveLength(1);
  });

  it('sums any window in SQL as the library does', async () => {
    const windows = [
      [START - 5 * H, NOW],
      [Date.UTC(2026, 9, 4, 3, 30), Date.UTC(2026, 9, 5, 0, 15)], // inside the gap
      [Date.UTC(2026, 10, 1, 0, 0, 0, 1), Date.UTC(2026, 10, 10, 13, 30)], // odd edges, across the reset
      [Date.UTC(2026, 10, 15, 12, 0), Date.UTC(2026, 10, 15, 12, 25)],
    ];
    for (const [from, to] of windows) {
      const sql = (await readModel.consumption(ORG, [7], from, to)).get(7)?.get(1) ?? 0;
      expect(sql).toBeCloseTo(consumptionBetween(intervals, from, to), 9);
    }
  });

  for (const zone of ZONES) {
    it(`history in ${zone}: every period, day by day, with alerts`, async () => {
      for (const period of PERIODS) {
        const resolved = resolvePeriod(period, NOW, zone);
        if (!resolved.ok) throw new Error(resolved.message);
        const expected = dailyConsumption(intervals, resolved.days);
        const answer = await history.history(ORG, 7, period, zone);
        expect(answer.time_zone).toBe(zone);
        expect(answer.chart_type).toBe(period === 'CURRENT_MONTH' ? 'LINE' : 'BAR');
        expect(answer.series).toHaveLength(2);
        expect(answer.series[0].data_points).toEqual(
          expected.map((d) => ({ date: dataPointDate(d.date), value: dayValue(d), value_fmt: `${dayValue(d)} m³`, alerts: d.alerts, quality: d.quality })),
        );
        expect(answer.series[1].data_points.map((d) => d.value)).toEqual(expected.map((d) => dayValue(d, 2)));
        // Unrounded the SQL running totals agree with the library to 1e-9; rounded to 3 places an exact half
        // (common with 3-decimal readings x 30/20) may round either way, so allow one unit in the last place.
        const projected = projectMonth(intervals, NOW, zone, 1.75);
        expect(answer.series[0].projection.date).toBe(projected.projection_date);
        // history reads the window's consumption in its own query: the very numbers of the projection routes
        const viaProjection = (await projections.project(ORG, [await readModel.device(ORG, 7)], zone)).get(7)!;
        expect(answer.series.map((s) => s.projection)).toEqual(
          [1, 2].map((channel) => ({
            date: viaProjection.window.projectionDate,
            value: roundDecimal(viaProjection.channels.get(channel)!.projected_value, 3),
          })),
        );
        expect(answer.summary).toContain(`projected ${formatWithUnit(viaProjection.total.projected_value, 3, 'm³')} for the month`);
        expect(Math.abs(answer.series[0].projection.value - projected.projected_value)).toBeLessThanOrEqual(0.0005 + 1e-9);
      }
    });

    it(`three months and projection in ${zone}`, async () => {
      const months = lastThreeMonths(NOW, zone);
      const answer = await history.threeMonths(ORG, 7, zone);
      expect(answer.series[0].rows.map((r) => r.date)).toEqual(['2026-09-01', '2026-10-01', '2026-11-01']);
      months.forEach((month, i) => {
        const days = dailyConsumption(intervals, month.days);
        const row = answer.series[0].rows[i];
        expect(row.value).toBe(formatDecimal(sumDays(days).value, 3));
        expect(row.alerts).toEqual(sumDays(days).alerts);
        expect(row.by_days.map((d) => [d.date, d.value, d.alerts, d.quality])).toEqual(days.map((d) => [d.date, dayValue(d), d.alerts, d.quality]));
      });
      const p = (await projections.project(ORG, [await readModel.device(ORG, 7)], zone)).get(7)!;
      const library = projectMonth(intervals, NOW, zone, 1.75);
      const channel2 = intervalsFromReadings(readings.map((r) => ({ ...r, value: r.value * 2 })));
      const window = projectionWindow(NOW, zone);
      const libraryBoth = projectionFromConsumption(
        window,
        consumptionBetween(intervals, window.from, window.to) + consumptionBetween(channel2, window.from, window.to),
        1.75,
      );
      expect(p.channels.get(1)!.projected_value).toBeCloseTo(library.projected_value, 9);
      const body = projectionBody(p, true);
      expect(p.total.projected_value).toBeCloseTo(libraryBoth.projected_value, 9);
      expect(body).toEqual({
        device_id: '7',
        projected_value: roundDecimal(p.total.projected_value, 3),
        projected_cost: roundDecimal(p.total.projected_cost, 2),
        unit: 'm³',
        currency_symbol: '€',
        days_used_for_calculation: library.days_used_for_calculation,
        total_days_in_month: 30,
        average_daily_consumption: roundDecimal(p.total.average_daily_consumption, 3),
        calculation_date: library.calculation_date,
        projection_date: '2026-11-30',
      });
      const mtd = (await readModel.consumption(ORG, [7], months[2].days[0].start, NOW)).get(7)!.get(1)!;
      expect(mtd).toBeCloseTo(monthToDateConsumption(intervals, NOW, zone), 9);
    });
  }

  it('dashboard: four panels per channel that agree with history and the library', async () => {
    const dashboard = new DashboardService(readModel, projections, new FixedClock(NOW));
    const zone = 'Europe/Madrid';
    const answer = await dashboard.dashboard(ORG, { devices: [{ device_id: 7 }, { device_id: 99 }] }, zone);
    expect(answer.results[1]).toEqual({ device_id: 99, status: 'NOT_FOUND', panels: [] });
    const panels = answer.results[0].panels;
    expect(panels.map((p) => `${p.channel}:${p.type}`)).toEqual([
      '1:CURRENT_CONSUMPTION',
      '1:DAILY_ESTIMATE',
      '1:LAST_READING',
      '1:MONTHLY_PROJECTION',
      '2:CURRENT_CONSUMPTION',
      '2:DAILY_ESTIMATE',
      '2:LAST_READING',
      '2:MONTHLY_PROJECTION',
    ]);
    const series = (await history.history(ORG, 7, 'CURRENT_MONTH', zone)).series;
    const projected = projectMonth(intervals, NOW, zone, 1.75);
    const [current, estimate, last, monthly] = panels;
    expect(current.value).toBeCloseTo(monthToDateConsumption(intervals, NOW, zone), 2);
    expect(current.alerts.map((a) => a.code)).toEqual(['REGISTER_RESET']); // the meter was replaced on 2026-11-10
    expect(estimate.value).toBeCloseTo(projected.average_daily_consumption, 2);
    expect(monthly.value).toBe(series[0].projection.value);
    expect(panels[7].value).toBe(series[1].projection.value);
    const latest = readings.reduce((a, b) => (b.readAt > a.readAt ? b : a));
    expect(last).toMatchObject({ value: latest.value, subtitle: '2026-11-21 10:00 (Europe/Madrid)', alerts: [] });
    expect(panels[6].value).toBe(roundDecimal(latest.value * 2, 3));
    expect(current.display_value).toMatch(/^\d{1,3}(,\d{3})*\.\d$/);
  });

  it('refuses bad periods and answers 404 for devices of other organizations', async () => {
    for (const period of ['7d', '2026-13', '2026-12', '2027-01', 'CURRENT', '1969-12']) {
      await expect(history.history(ORG, 7, period, 'UTC')).rejects.toMatchObject({ code: 'validation_failed' });
    }
    await expect(history.history('other_org', 7, '7D', 'UTC')).rejects.toMatchObject({ code: 'not_found' });
    await expect(history.threeMonths(ORG, 8, 'UTC')).rejects.toMatchObject({ code: 'not_found' });
    // an unknown device is a 404 before a bad period, with X-Timezone or without
    await expect(history.history('other_org', 7, '7d', 'UTC')).rejects.toMatchObject({ code: 'not_found' });
    await expect(history.history('other_org', 7, '7d', undefined)).rejects.toMatchObject({ code: 'not_found' });
    await expect(history.history(ORG, 7, '7d', undefined)).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(history.threeMonths(ORG, 8, undefined)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a reset read exactly at the local midnight that starts the period is on its first day, as in a longer period', async () => {
    // Device 9 (self-registered, UTC): a reading every midnight, +10 a day; the one of 2026-11-15 00:00Z went down to 5.
    const rows: ReadingRow[] = [];
    for (let day = 1, value = 100; day <= 21; day++, value += 10) {
      rows.push({ orgId: ORG, deviceId: 9, channel: 1, readAt: Date.UTC(2026, 10, day), value: day >= 15 ? 5 + (day - 15) * 10 : value, seq: 2_000_000 + day });
    }
    await ds.transaction(async (m) => void (await writeBatch(m.queryRunner!, rows, [])));
    const week = (await history.history(ORG, 9, '7D', 'UTC')).series[0].data_points;
    const fortnight = (await history.history(ORG, 9, '15D', 'UTC')).series[0].data_points;
    expect(week[0]).toMatchObject({ date: '2026-11-15 00:00:00.000', value: '10.000', alerts: [{ code: 'REGISTER_RESET' }] });
    expect(fortnight.slice(8)).toEqual(week);
    expect(fortnight[7]).toMatchObject({ date: '2026-11-14 00:00:00.000', value: '0.000', alerts: [] }); // the reset interval counts 0
    const months = await history.threeMonths(ORG, 9, 'UTC');
    expect(months.series[0].rows[2].by_days[14]).toMatchObject({ date: '2026-11-15', alerts: [{ code: 'REGISTER_RESET' }] });
  });

  it('the current month by name is the whole month: the days to come are "0" with NO_DATA, the average is per day begun', async () => {
    const answer = await history.history(ORG, 7, '2026-11', 'UTC');
    const points = answer.series[0].data_points;
    expect(points).toHaveLength(30);
    expect(points.slice(21).every((p) => p.value === '0' && p.value_fmt === '0 m³' && p.alerts.map((a) => a.code).join() === 'NO_DATA')).toBe(true);
    expect(points.slice(0, 21).map((p) => p.value)).toEqual((await history.history(ORG, 7, 'CURRENT_MONTH', 'UTC')).series[0].data_points.map((p) => p.value));
    expect(answer.summary).toMatch(/per day over 21 days;/);
  });

  it('an unknown device is a 404 before any bad period, a missing or repeated one included', async () => {
    for (const period of [undefined, ['7D', '15D'], '7d']) {
      await expect(history.history(ORG, 404, period, 'UTC')).rejects.toMatchObject({ code: 'not_found' });
    }
    await expect(history.history(ORG, 7, undefined, 'UTC')).rejects.toMatchObject({
      code: 'validation_failed',
      extensions: { errors: [{ field: 'period', message: expect.stringMatching(/^is required/) }] },
    });
    await expect(history.history(ORG, 7, ['7D', '15D'], 'UTC')).rejects.toMatchObject({
      extensions: { errors: [{ field: 'period', message: expect.stringMatching(/^must be given once/) }] },
    });
  });

  it("without X-Timezone answers in the device's zone, as with that zone named", async () => {
    for (const period of PERIODS) expect(await history.history(ORG, 7, period, undefined)).toEqual(await history.history(ORG, 7, period, 'Europe/Madrid'));
    expect(await history.threeMonths(ORG, 7, undefined)).toEqual(await history.threeMonths(ORG, 7, 'Europe/Madrid'));
  });
});
