/**
 * The register units a device may count in (docs/consumption.md, "Units"):
 * cubic metres, litres, US gallons, cubic feet and CCF (100 ft³).
 */
export const UNITS = ['m³', 'L', 'gal', 'ft³', 'CCF'] as const;
export type Unit = (typeof UNITS)[number];

/** Spellings accepted for a unit besides its own: ASCII forms of the superscript units, any letter case. */
const ALIASES: Record<string, Unit> = { m3: 'm³', 'm³': 'm³', l: 'L', gal: 'gal', ft3: 'ft³', 'ft³': 'ft³', ccf: 'CCF' };

/** The unit a text names (`m3`, `M³`, `l`, `Gal`, `FT3`, `ccf` ...), or undefined. */
export function parseUnit(text: string): Unit | undefined {
  return ALIASES[text.trim().toLowerCase()];
}
