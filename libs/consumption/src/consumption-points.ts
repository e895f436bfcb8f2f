import type { ConsumptionWindow, PointSpan } from './consumption-window';
import { dailyConsumption, type DailyConsumption } from './daily-consumption';
import { dayDecimalPlaces } from './day-value';
import { addDecimals, subtractDecimals } from './decimal-sum';
import type { Interval } from './interval';
import type { Quality } from './quality';

export interface ConsumptionPoint {
  start: number;
  end: number;
  /** decimal text with the device's decimal places; "0" when MISSING */
  value: string;
  quality: Quality;
}

/** Writes a volume (in the device's unit) rounded to `places` in the unit of the answer: VolumeFormat.decimal. */
export type DecimalWriter = (value: number, decimalPlaces: number) => string;

/**
 * The value of each point of a window, from the intervals of one channel.
 *
 * Every figure is the daily arithmetic of `dailyConsumption`, the one the
 * history and the exports use, so the points of a local day add up, to the
 * digit, to that day's history value:
 * - a sub-day point is R(C(end)) - R(C(start)), where C(t) is the day's
 *   consumption from its midnight to t (C of the day's end is the day's own
 *   value) and R the rounding of the answer. The rounding errors telescope:
 *   the points of a day sum to R(day's value), which is the history's value.
 * - a P1D point is the day's history value; a P1M point the exact sum of its
 *   days' values.
 * Quality is the day's rule (quality.ts) applied to the point's span; a P1M
 * point is MISSING when all its days are, ESTIMATED when any is, else ACTUAL.
 */
export function consumptionPoints(intervals: readonly Interval[], window: ConsumptionWindow, write: DecimalWriter, decimalPlaces: number): ConsumptionPoint[] {
  const days = dailyConsumption(intervals, window.days);
  const dayValues = days.map((day) => write(day.value, dayDecimalPlaces(day, decimalPlaces)));
  const subDay = new Map<number, SubDayCumulative>();
  return window.points.map((point) => {
    if (isWholeDays(point, window)) {
      const covered = days.slice(point.firstDay, point.lastDay + 1);
      const quality = combinedQuality(covered);
      const value = quality === 'MISSING' ? '0' : addDecimals(dayValues.slice(point.firstDay, point.lastDay + 1), decimalPlaces);
      return { start: point.start, end: point.end, value, quality };
    }
    let cumulative = subDay.get(point.firstDay);
    if (!cumulative) {
      cumulative = new SubDayCumulative(intervals, window.days[point.firstDay], days[point.firstDay], write, decimalPlaces);
      subDay.set(point.firstDay, cumulative);
    }
    return cumulative.point(point);
  });
}

/** A day's rounded consumption from its midnight up to any instant of it. */
class SubDayCumulative {
  private readonly intervals: Interval[];
  private readonly rounded = new Map<number, string>();

  constructor(
    all: readonly Interval[],
    private readonly day: { date: string; start: number; end: number },
    private readonly total: DailyConsumption,
    private readonly write: DecimalWriter,
    private readonly places: number,
  ) {
    // Only the intervals that reach into the day can count in it.
    this.intervals = all.filter((i) => i.end > day.start && i.start < day.end);
  }

  point(span: PointSpan) {
    const [measured] = dailyConsumption(this.intervals, [{ date: this.day.date, start: span.start, end: span.end }]);
    const value = measured.quality === 'MISSING' ? '0' : subtractDecimals(this.upTo(span.end), this.upTo(span.start), this.places);
    return { start: span.start, end: span.end, value, quality: measured.quality };
  }

  private upTo(instant: number): string {
    let text = this.rounded.get(instant);
    if (text === undefined) {
      const value =
        instant >= this.day.end
          ? this.total.value
          : instant <= this.day.start
            ? 0
            : dailyConsumption(this.intervals, [{ date: this.day.date, start: this.day.start, end: instant }])[0].value;
      text = this.write(value, this.places);
      this.rounded.set(instant, text);
    }
    return text;
  }
}

function isWholeDays(point: PointSpan, window: ConsumptionWindow): boolean {
  return point.start === window.days[point.firstDay].start && point.end === window.days[point.lastDay].end;
}

function combinedQuality(days: readonly DailyConsumption[]): Quality {
  if (days.every((d) => d.quality === 'MISSING')) return 'MISSING';
  return days.some((d) => d.quality === 'ESTIMATED') ? 'ESTIMATED' : 'ACTUAL';
}
