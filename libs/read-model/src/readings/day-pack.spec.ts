import { describe, expect, it } from 'vitest';
import { type DayReading, packDay, packedDayCount, unpackDay } from './day-pack';

const DAY_US = 86_400_000_000;
const HOUR_US = 3_600_000_000;
const MAX_SEQ = Number.MAX_SAFE_INTEGER;

/**
 * The format written a second way, plainly and in BigInt, so the codec's
 * arithmetic varints are checked byte for byte against ordinary LEB128 and
 * zigzag (2n or -2n - 1), and its scale search against trying every scale.
 */
function referencePack(readings: readonly DayReading[]): Buffer {
  const bytes: number[] = [1];
  const uvarint = (n: bigint) => {
    for (; n >= 128n; n >>= 7n) bytes.push(Number(n & 127n) | 128);
    bytes.push(Number(n));
  };
  const zigzag = (n: bigint) => uvarint(n >= 0n ? 2n * n : -2n * n - 1n);
  const columnSteps = (column: bigint[]) => {
    uvarint(column[0]);
    for (let i = 1; i < column.length; i++) zigzag(column[i] - column[i - 1]);
  };
  uvarint(BigInt(readings.length));
  const values = readings.map((r) => r.value);
  const mode = [...Array(16).keys()].find((s) =>
    values.every((v) => !Object.is(v, -0) && Number.isSafeInteger(Math.round(v * 10 ** s)) && Math.round(v * 10 ** s) / 10 ** s === v),
  );
  bytes.push(mode ?? 255);
  if (readings.length === 0) return Buffer.from(bytes);

  const times = readings.map((r) => BigInt(r.us));
  uvarint(times[0]);
  if (times.length > 1) uvarint(times[1] - times[0]);
  for (let i = 2; i < times.length; i++) zigzag(times[i] - 2n * times[i - 1] + times[i - 2]);
  if (mode === undefined) {
    for (const v of values) {
      const raw = Buffer.alloc(8);
      raw.writeDoubleBE(v);
      bytes.push(...raw);
    }
  } else columnSteps(values.map((v) => BigInt(Math.round(v * 10 ** mode))));
  columnSteps(readings.map((r) => BigInt(r.seq)));
  return Buffer.from(bytes);
}

/** Same readings, every field the same double by Object.is (so -0 is not 0). */
function expectExact(actual: DayReading[], expected: readonly DayReading[]) {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((reading, i) => {
    const got = actual[i];
    if (!Object.is(got.us, reading.us) || !Object.is(got.value, reading.value) || !Object.is(got.seq, reading.seq)) {
      expect.fail(`reading ${i}: got ${JSON.stringify(got)} (value ${got.value}), expected ${JSON.stringify(reading)} (value ${reading.value})`);
    }
  });
}

/** Packs, compares with the reference bytes, unpacks and compares exactly; returns the packed day. */
function roundTrip(day: readonly DayReading[]): Buffer {
  const packed = packDay(day);
  expect(packed.toString('hex')).toBe(referencePack(day).toString('hex'));
  expectExact(unpackDay(packed), day);
  expect(packedDayCount(packed)).toBe(day.length);
  return packed;
}

/** The value mode byte: after the version and a count below 128. */
const modeOf = (packed: Buffer) => packed[2];

const hourly = (values: readonly number[], seqs: (i: number) => number = (i) => 1000 + i): DayReading[] =>
  values.map((value, i) => ({ us: i * HOUR_US, value, seq: seqs(i) }));

const times = (us: readonly number[]): DayReading[] => us.map((t, i) => ({ us: t, value: i, seq: i }));

describe('packDay and unpackDay', () => {
  it.each<[string, DayReading[], number]>([
    ['an empty day', [], 0],
    ['one reading', [{ us: 12 * HOUR_US, value: 1234.567, seq: 42 }], 3],
    ['24 hourly readings', hourly(Array.from({ length: 24 }, (_, i) => 100 + i * 0.25)), 2],
    ['96 quarter-hourly readings', Array.from({ length: 96 }, (_, i) => ({ us: i * 900_000_000, value: 5000 + i * 0.001, seq: 7_000_000 + 3 * i })), 3],
    ['irregular times from the first to the last µs of the day', times([0, 1, 2, 4, 1_000_000, 1_000_001, 43_200_000_000, 86_399_999_998, 86_399_999_999]), 0],
    ['times that jump back and forth in step', times([5, 3_600_000_005, 3_600_000_006, 86_000_000_000, 86_000_000_001, 86_399_999_999]), 0],
    ['0, 0.1 and 123.456', hourly([0, 0.1, 123.456]), 3],
    ['1e15 - 0.001 (which is 1e15)', hourly([1e15 - 0.001]), 0],
    ['999999999999.999', hourly([999_999_999_999.999]), 3],
    ['1e15 beside 999999999999.999 (1e18 is no safe mantissa), raw', hourly([1e15, 999_999_999_999.999]), 255],
    ['the largest safe integer value', hourly([0, MAX_SEQ, 0, MAX_SEQ]), 0],
    ['a 15-decimal value', hourly([0.123456789012345]), 15],
    ['a mix of scales, picking the largest one needed', hourly([1, 0.5, 0.25, 0.125, 3]), 3],
    ['a register reset (the value drops)', hourly([999.998, 999.999, 0, 0.001, 0.002]), 3],
    ['-0, raw', hourly([0, -0, 1]), 255],
    ['0.1 + 0.2, raw', hourly([1, 0.1 + 0.2]), 255],
    ['2 ** 53 (not a safe mantissa), raw', hourly([2 ** 53]), 255],
    ['5e-324, raw', hourly([5e-324, 0]), 255],
    ['the largest doubles, raw', hourly([Number.MAX_VALUE, 1.7e308, 1e300, 0]), 255],
    ['1/3, raw', hourly([1 / 3]), 255],
    ['sequences 0 and 2 ** 53 - 1, both ways', hourly([1, 2, 3, 4, 5], (i) => [0, MAX_SEQ, 0, MAX_SEQ, 1][i]), 0],
    ['descending sequences', hourly([1, 2, 3, 4], (i) => 1_000_000 - 7 * i * i), 0],
  ])('%s round-trip exactly', (_, day, mode) => {
    expect(modeOf(roundTrip(day))).toBe(mode);
  });

  it('writes the widest steps as ordinary LEB128 zigzags', () => {
    // Steps of ±(2^53 - 1): zigzags 2^54 - 2 and 2^54 - 3, the second not a double.
    const packed = roundTrip(hourly([0, MAX_SEQ, 0], (i) => [MAX_SEQ, 0, MAX_SEQ][i]));
    const minus = 'fdffffffffffff1f'; // 2^54 - 3
    const plus = 'feffffffffffff1f'; // 2^54 - 2
    const first = 'ffffffffffffff0f'; // 2^53 - 1
    expect(packed.toString('hex')).toBe(`010300` + `0080c8ceb40d00` + `00${plus}${minus}` + `${first}${minus}${plus}`);
  });

  it('counts above 127 in two bytes', () => {
    const day = Array.from({ length: 300 }, (_, i) => ({ us: i * 60_000_000, value: i, seq: i }));
    expect(roundTrip(day).subarray(0, 4).toString('hex')).toBe('01ac0200');
  });

  it('reads a day from a Uint8Array at an offset in a larger buffer', () => {
    const day = hourly([0.1 + 0.2, 1e300, 0], (i) => i);
    const packed = packDay(day);
    const larger = new Uint8Array(packed.length + 13);
    larger.set(packed, 5);
    expectExact(unpackDay(larger.subarray(5, 5 + packed.length)), day);
  });

  it('keeps its output when packing again (no shared buffer)', () => {
    const first = packDay(hourly([1, 2, 3]));
    const copy = Buffer.from(first);
    packDay(hourly([7.5, 8.25, 9]));
    expect(first.equals(copy)).toBe(true);
  });

  it('packs a day too large for its reused buffer', () => {
    const day = Array.from({ length: 5_000 }, (_, i) => ({ us: i * 17_000_000 + (i % 7), value: 2 ** 52 + i * 3, seq: MAX_SEQ - i * 99_991 }));
    roundTrip(day);
  });

  /**
   * The size example of docs/capacity.md: 24 hourly readings from 00:17:03,
   * a register from 1234.567 m³ advancing 0.001 to 0.050 m³ an hour, stream
   * sequences 9,000 to 11,000 apart. It packs in 134 bytes (5.6 a reading):
   * - header 3: version, count 24, value mode 3.
   * - times 32: 1,023,000,000 µs (5: below 2^35), the 3,600,000,000 µs step
   *   (5), then 22 steps of steps of 0 (1 each).
   * - values 26: mantissa 1,234,567 (3: below 2^21), then 23 steps of 1 to 50,
   *   zigzags 2 to 100 (1 each).
   * - seqs 73: 48,213,377 (4: below 2^28), then 23 steps of 9,000 to 11,000,
   *   zigzags 18,000 to 22,000 (3 each: from 2^14 to below 2^21).
   */
  it('packs the documented example day in 134 bytes', () => {
    const litresPerHour = [1, 50, 12, 3, 7, 25, 40, 2, 9, 31, 18, 6, 44, 27, 5, 13, 38, 21, 8, 16, 49, 4, 11];
    const seqSteps = [
      9000, 11000, 10_234, 9_871, 10_003, 9_999, 10_500, 9_500, 10_777, 9_123, 10_050, 9_950, 10_600, 9_400, 10_000, 10_001, 9_002, 10_998, 9_777, 10_222,
      10_444, 9_556, 10_111,
    ];
    const day: DayReading[] = [];
    let mantissa = 1_234_567;
    let seq = 48_213_377;
    for (let h = 0; h < 24; h++) {
      if (h > 0) {
        mantissa += litresPerHour[h - 1];
        seq += seqSteps[h - 1];
      }
      day.push({ us: 1_023_000_000 + h * HOUR_US, value: mantissa / 1000, seq });
    }
    const packed = roundTrip(day);
    expect(modeOf(packed)).toBe(3);
    expect(packed.length).toBe(134);
  });
});

describe('packDay and unpackDay on seeded random days', () => {
  // 4,000 days: about a second, well inside a unit test's time on a busy machine (20,000 took 4-9 s).
  it('round-trip 4,000 days exactly, byte for byte as the reference packs them', () => {
    const random = mulberry32(0x5eed_da75);
    const modes = new Set<number>();
    for (let d = 0; d < 4_000; d++) {
      const day = randomDay(random);
      const packed = packDay(day);
      // The BigInt reference is slow: every 4th day is enough for its bytes.
      if (d % 4 === 0) expect(packed.equals(referencePack(day))).toBe(true);
      expectExact(unpackDay(packed), day);
      expect(packedDayCount(packed)).toBe(day.length);
      if (day.length > 0) modes.add(modeOf(packed));
    }
    // The generator reached the raw mode and the decimal scales it means to.
    expect([...modes].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 15, 255]);
  });
});

describe('packDay refuses', () => {
  const ok = { us: 0, value: 1, seq: 1 };
  it.each<[string, DayReading[]]>([
    [
      'unsorted times',
      [
        { ...ok, us: 2 },
        { ...ok, us: 1 },
      ],
    ],
    [
      'a duplicate time',
      [
        { ...ok, us: 5 },
        { ...ok, us: 5 },
      ],
    ],
    ['a negative time', [{ ...ok, us: -1 }]],
    ['a time of a whole day', [{ ...ok, us: DAY_US }]],
    ['a fractional time', [{ ...ok, us: 1.5 }]],
    ['a NaN time', [{ ...ok, us: NaN }]],
    ['a negative seq', [{ ...ok, seq: -1 }]],
    ['an unsafe seq', [{ ...ok, seq: 2 ** 53 }]],
    ['a fractional seq', [{ ...ok, seq: 0.5 }]],
    ['a negative value', [ok, { ...ok, us: 1, value: -0.001 }]],
    ['a NaN value', [{ ...ok, value: NaN }]],
    ['an infinite value', [{ ...ok, value: Infinity }]],
    ['a value that is not a number', [{ ...ok, value: '1' as unknown as number }]],
  ])('%s', (_, day) => {
    expect(() => packDay(day)).toThrow(RangeError);
  });
});

describe('unpackDay refuses', () => {
  const days = [hourly([1.5, 2.25, 0]), hourly([0.1 + 0.2, 7]), hourly([0, MAX_SEQ], () => MAX_SEQ), []];

  it('every truncation of a packed day', () => {
    for (const day of days) {
      const packed = packDay(day);
      for (let length = 0; length < packed.length; length++) expect(() => unpackDay(packed.subarray(0, length)), `${length} bytes`).toThrow(RangeError);
    }
  });

  it('a byte after the last reading', () => {
    for (const day of days) expect(() => unpackDay(Buffer.concat([packDay(day), Buffer.from([0])]))).toThrow(RangeError);
  });

  const hex = (s: string) => Buffer.from(s.replace(/ /g, ''), 'hex');
  // Each one valid but for one thing; the first is the valid day they all vary.
  it('accepts the day the next cases vary', () => {
    expectExact(unpackDay(hex('01 02 00  05 01  03 04  09 02')), [
      { us: 5, value: 3, seq: 9 },
      { us: 6, value: 5, seq: 10 },
    ]);
  });
  it.each([
    ['an unknown version', '02 02 00  05 01  03 04  09 02'],
    ['version 0', '00 02 00  05 01  03 04  09 02'],
    ['an unknown value mode', '01 02 10  05 01  03 04  09 02'],
    ['value mode 254', '01 02 fe  05 01  03 04  09 02'],
    ['a count its bytes cannot hold', '01 04 00  05 01  03 04  09 02'],
    ['a time step of 0', '01 02 00  05 00  03 04  09 02'],
    ['a step of a step down to 0', '01 03 00  05 01 01  03 04 04  09 02 02'],
    ['a time past the day', '01 01 00  80c0ddeec102  03  09'],
    ['a time step past the day', '01 02 00  05 80c0ddeec102  03 04  09 02'],
    ['a mantissa below 0', '01 02 00  05 01  03 07  09 02'],
    ['a sequence below 0', '01 02 00  05 01  03 04  09 13'],
    ['an overlong varint', '01 02 00  8500 01  03 04  09 02'],
    ['an overlong zigzag', '01 02 00  05 01  03 8400  09 02'],
    ['a varint of 9 bytes', '01 01 00  00  808080808080808001  00'],
    ['a varint past 2^53', '01 01 00  00  8080808080808010  00'],
    ['a raw NaN', '01 01 ff  00  7ff8000000000000  00'],
    ['a raw infinity', '01 01 ff  00  7ff0000000000000  00'],
    ['a raw negative value', '01 01 ff  00  bff0000000000000  00'],
    ['an empty input', ''],
  ])('%s', (_, bytes) => {
    expect(() => unpackDay(hex(bytes))).toThrow(RangeError);
  });

  it('a varint of 2^53 - 1 is the largest it reads', () => {
    expectExact(unpackDay(hex('01 01 00  00  ffffffffffffff0f  00')), [{ us: 0, value: MAX_SEQ, seq: 0 }]);
    expect(() => unpackDay(hex('01 01 00  00  8080808080808010  00'))).toThrow(/past 2\^53/);
  });
});

describe('packedDayCount', () => {
  it('reads the count from the header alone', () => {
    const packed = packDay(hourly([1, 2, 3, 4]));
    packed[3] = 0xff; // the first time, now an unfinished varint
    expect(() => unpackDay(packed)).toThrow(RangeError);
    expect(packedDayCount(packed)).toBe(4);
  });

  it('refuses an unknown version or a count the bytes cannot hold', () => {
    expect(() => packedDayCount(Buffer.from([2, 0, 0]))).toThrow(RangeError);
    expect(() => packedDayCount(Buffer.from([1, 2, 0, 0, 0, 0]))).toThrow(RangeError);
    expect(() => packedDayCount(Buffer.alloc(0))).toThrow(RangeError);
  });
});

/** Mulberry32: a small seeded generator of 32-bit integers, as floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A random day of the kinds the store meets and the edges it must still keep:
 * regular or scattered times, registers of 0 to 6 decimals with resets,
 * mantissas near 2^53, arbitrary doubles and -0 (raw), sequences rising,
 * late (falling) or anywhere in 0..2^53 - 1.
 */
function randomDay(random: () => number): DayReading[] {
  const int = (below: number) => Math.floor(random() * below);
  const safeInt = () => int(2 ** 21) * 2 ** 32 + int(2 ** 32);
  const count = random() < 0.03 ? 0 : 1 + int(random() < 0.1 ? 400 : 60);

  let us: number[];
  if (random() < 0.5) {
    const period = Math.floor(DAY_US / count) - int(Math.floor(DAY_US / count / 2));
    const start = int(DAY_US - period * (count - 1));
    const jitter = random() < 0.5 ? 0 : Math.min(1_000_000, Math.floor(period / 3));
    us = Array.from({ length: count }, (_, i) => start + i * period + int(jitter + 1));
  } else {
    const picked = new Set<number>(random() < 0.2 ? [0, DAY_US - 1] : []);
    while (picked.size < count) picked.add(int(DAY_US));
    us = [...picked].sort((a, b) => a - b).slice(0, count);
  }

  const valueKind = int(5);
  const scale = int(7);
  let mantissa = int(10 ** int(13));
  const values = us.map(() => {
    if (valueKind === 0) return rawDouble(random);
    if (valueKind === 1) return Number.MAX_SAFE_INTEGER - int(1_000_000);
    if (valueKind === 2) return Number.MAX_SAFE_INTEGER / 10 ** 15; // scale 15
    mantissa = random() < 0.02 ? int(100) : mantissa + int(5_000);
    if (valueKind === 3 && random() < 0.05) return [-0, 0.1 + 0.2, Number.MIN_VALUE, 2 ** 53][int(4)];
    return mantissa / 10 ** scale;
  });

  const seqKind = int(3);
  let seq = int(2 ** 40);
  const seqs = us.map(() => {
    if (seqKind === 0) return (seq += int(20_000));
    if (seqKind === 1) return (seq = Math.max(0, seq + int(20_000) - 12_000));
    return random() < 0.3 ? [0, MAX_SEQ][int(2)] : safeInt();
  });

  return us.map((t, i) => ({ us: t, value: values[i], seq: seqs[i] }));
}

/** A double >= 0 from random bits: any finite one, subnormals and the largest included. */
function rawDouble(random: () => number): number {
  const view = new DataView(new ArrayBuffer(8));
  for (;;) {
    view.setUint32(0, Math.floor(random() * 2 ** 31));
    view.setUint32(4, Math.floor(random() * 2 ** 32));
    const value = view.getFloat64(0);
    if (Number.isFinite(value)) return value;
  }
}
