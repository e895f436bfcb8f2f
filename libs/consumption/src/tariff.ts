/**
 * A device's price (docs/consumption.md, "Tariffs"): a standing charge per
 * day and increasing monthly blocks. `up_to` is the cumulative monthly volume
 * (in the device's unit) a block ends at; the last block's is null (open).
 */
export interface TariffBlock {
  up_to: number | null;
  price_per_unit: number;
}

export interface Tariff {
  currency_symbol: string;
  standing_charge_per_day: number;
  blocks: TariffBlock[];
}

/** A device's pricing: its tariff, or else `price_per_unit` as one open block without a standing charge. */
export function effectiveTariff(device: { tariff: Tariff | null; pricePerUnit: number; currencySymbol: string }): Tariff {
  return device.tariff ?? flatTariff(device.pricePerUnit, device.currencySymbol);
}

/** `price_per_unit` alone: one open block, no standing charge. */
export function flatTariff(pricePerUnit: number, currencySymbol: string): Tariff {
  return { currency_symbol: currencySymbol, standing_charge_per_day: 0, blocks: [{ up_to: null, price_per_unit: pricePerUnit }] };
}

/**
 * What a month of `volume` (in the device's unit) costs: the standing charge
 * for each of its days, plus each block's share of the volume at the block's
 * price (block i covers the volume above block i-1's `up_to` up to its own).
 * Unrounded: round for display. With a flat tariff this is exactly
 * `volume × price_per_unit`.
 */
export function monthCost(tariff: Tariff, volume: number, daysInMonth: number): number {
  let cost = 0;
  let lower = 0;
  for (const block of tariff.blocks) {
    if (volume <= lower) break;
    const upper = block.up_to ?? Number.POSITIVE_INFINITY;
    cost += (Math.min(volume, upper) - lower) * block.price_per_unit;
    lower = upper;
  }
  return tariff.standing_charge_per_day * daysInMonth + cost;
}
