import { describe, expect, it } from 'vitest';
import { roundDecimal } from './format';
import { projectionFromConsumption, projectionWindow } from './projection';
import { effectiveTariff, flatTariff, monthCost, type Tariff } from './tariff';

/** 2/day standing; 0..10 at 1.00, 10..25 at 1.50, above 25 at 3.00. */
const BLOCKS: Tariff = {
  currency_symbol: '$',
  standing_charge_per_day: 2,
  blocks: [
    { up_to: 10, price_per_unit: 1 },
    { up_to: 25, price_per_unit: 1.5 },
    { up_to: null, price_per_unit: 3 },
  ],
};

describe('monthCost', () => {
  it.each<[string, Tariff, number, number, number]>([
    ['a zero-volume month pays the standing charge only', BLOCKS, 0, 30, 60],
    ['inside the first block', BLOCKS, 4, 30, 64],
    ['exactly at the first edge: nothing in the second block', BLOCKS, 10, 30, 70],
    ['just above the first edge', BLOCKS, 10.2, 30, 70.3],
    ['exactly at the second edge', BLOCKS, 25, 31, 62 + 10 + 22.5],
    ['just above the second edge: the rest at the open block', BLOCKS, 25.5, 28, 56 + 10 + 22.5 + 1.5],
    ['far into the open block', BLOCKS, 1000, 30, 60 + 10 + 22.5 + 2925],
    ['one open block, no standing charge: price_per_unit as before', flatTariff(1.85, '€'), 38.52, 30, 71.262],
    [
      'a free block first',
      {
        currency_symbol: '£',
        standing_charge_per_day: 0.5,
        blocks: [
          { up_to: 5, price_per_unit: 0 },
          { up_to: null, price_per_unit: 2 },
        ],
      },
      7,
      30,
      19,
    ],
  ])('%s', (_, tariff, volume, days, expected) => {
    expect(roundDecimal(monthCost(tariff, volume, days), 2)).toBe(roundDecimal(expected, 2));
  });

  it('prices price_per_unit alone exactly as volume × price, to the last bit', () => {
    for (const [volume, price] of [
      [38.52, 1.85],
      [360, 1.5],
      [0.1 + 0.2, 0.7],
      [123.456789, 3.3333],
      [0, 2],
    ]) {
      expect(Object.is(monthCost(flatTariff(price, '€'), volume, 30), volume * price)).toBe(true);
    }
  });
});

describe('effectiveTariff', () => {
  it("is the device's tariff, or else its price per unit as one open block", () => {
    expect(effectiveTariff({ tariff: BLOCKS, pricePerUnit: 9, currencySymbol: '€' })).toBe(BLOCKS);
    expect(effectiveTariff({ tariff: null, pricePerUnit: 1.85, currencySymbol: '€' })).toEqual({
      currency_symbol: '€',
      standing_charge_per_day: 0,
      blocks: [{ up_to: null, price_per_unit: 1.85 }],
    });
  });
});

describe('projectionFromConsumption with a tariff', () => {
  it('prices the projected month through the blocks plus the standing charge of every day of the month', () => {
    const window = projectionWindow(Date.parse('2026-11-21T10:00:00Z'), 'UTC'); // 20 days used, 30 in the month
    const projection = projectionFromConsumption(window, 20 / 3, BLOCKS); // 1/3 a day -> 10 for the month: the first edge
    expect(projection.projected_value).toBeCloseTo(10, 12);
    expect(roundDecimal(projection.projected_cost, 2)).toBe(70);
    expect(projectionFromConsumption(window, 20, BLOCKS).projected_cost).toBe(60 + 10 + 22.5 + 5 * 3);
    expect(projectionFromConsumption(window, 20, 1.5).projected_cost).toBe(45);
    expect(projectionFromConsumption(window, 0, BLOCKS).projected_cost).toBe(60);
  });
});
