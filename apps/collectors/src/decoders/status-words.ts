import type { AlarmCode, DecodedAlarm } from './uplink';

/** The codes a wmbusmeters status word can raise; each telegram that carries a status settles all of them. */
export const STATUS_ALARM_CODES: readonly AlarmCode[] = ['DRY', 'REVERSE_FLOW', 'TAMPER', 'LEAK', 'BURST', 'OTHER'];

const WORD_CODES: Record<string, AlarmCode> = {
  DRY: 'DRY',
  REVERSE: 'REVERSE_FLOW',
  REVERSED: 'REVERSE_FLOW',
  TAMPER: 'TAMPER',
  LEAK: 'LEAK',
  BURST: 'BURST',
};

/** Words that mean "no alarm" as wmbusmeters prints them (`status`, `current_status`, izar's `current_alarms`). */
const QUIET = new Set(['', 'OK', 'NULL', 'NO_ALARM']);

/**
 * The alarms a telegram's status words state, at `at`: each code raised when
 * a word names it and cleared otherwise, so an alarm that disappears from the
 * status clears (docs/collectors.md, "Status words"). Words without a code of
 * their own raise OTHER, naming them. Undefined when the telegram has no status.
 */
export function statusAlarms(fields: readonly unknown[], at: string): DecodedAlarm[] | undefined {
  const texts = fields.filter((field): field is string => typeof field === 'string');
  if (texts.length === 0) return undefined;
  const words = new Set(
    texts
      .flatMap((text) => text.split(/[\s,]+/))
      .map((word) => word.trim())
      .filter((word) => !QUIET.has(word.toUpperCase())),
  );
  const raised = new Map<AlarmCode, string[]>();
  for (const word of words) {
    const code = WORD_CODES[word.toUpperCase()] ?? 'OTHER';
    raised.set(code, [...(raised.get(code) ?? []), word]);
  }
  return STATUS_ALARM_CODES.map((code): DecodedAlarm => {
    const named = raised.get(code);
    if (!named) return { code, state: 'cleared', at };
    return { code, state: 'raised', at, message: `The meter reports ${named.join(', ')} (wmbusmeters status).` };
  });
}
