import {
  DECIMAL,
  DEFAULT_CHANNEL,
  MAX_CHANNEL,
  MAX_READINGS_PER_MESSAGE,
  MIN_CHANNEL,
  RFC3339,
  isRegisterValue,
  rfc3339Ms,
  type ReadingMessageItem,
} from './readings';

/**
 * The hot path of `readingMessage`: the same rules (the schema's own regexes,
 * limits and conversions) checked by hand, without zod's work per item, and
 * each accepted item handed to `make` so the caller builds its own row. It
 * accepts exactly what `readingMessage` accepts and returns the same values
 * (reading-message-reader.spec.ts compares both on a table of inputs);
 * `undefined` means refused, and the schema is then asked for the reasons.
 */
export function readReadingMessage<T>(payload: unknown, make: (readAt: number, value: number, channel: number) => T): T[] | undefined {
  const items = Array.isArray(payload) ? (payload as unknown[]) : [payload];
  const n = items.length;
  if (n < 1 || n > MAX_READINGS_PER_MESSAGE) return undefined;
  const out = new Array<T>(n);
  for (let i = 0; i < n; i++) {
    const item = items[i];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
    const { read_at: readAt, value: raw, channel: rawChannel } = item as { read_at?: unknown; value?: unknown; channel?: unknown };
    if (typeof readAt !== 'string' || !RFC3339.test(readAt)) return undefined;
    const ms = rfc3339Ms(readAt);
    if (ms === undefined) return undefined;
    let value: number;
    if (typeof raw === 'number') value = raw;
    else if (typeof raw === 'string' && DECIMAL.test(raw)) value = Number(raw);
    else return undefined;
    if (!isRegisterValue(value)) return undefined;
    let channel = DEFAULT_CHANNEL;
    if (rawChannel !== undefined) {
      if (typeof rawChannel !== 'number' || !Number.isSafeInteger(rawChannel) || rawChannel < MIN_CHANNEL || rawChannel > MAX_CHANNEL) return undefined;
      channel = rawChannel;
    }
    out[i] = make(ms, value, channel);
  }
  return out;
}

/** The items as `readingMessage` outputs them. */
export const readingMessageItemOf = (readAt: number, value: number, channel: number): ReadingMessageItem => ({ read_at: readAt, value, channel });
