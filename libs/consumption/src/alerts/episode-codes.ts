/**
 * Alert episodes (docs/alerts-and-webhooks.md): per device and channel, open
 * then cleared. Three codes are computed from the readings, one from the
 * clock, and six are device alarms that collectors report.
 */
export const READING_ALERT_CODES = ['LEAK', 'BURST', 'NO_FLOW'] as const;
export type ReadingAlertCode = (typeof READING_ALERT_CODES)[number];

/** Judged by the clock: the latest reading is older than the device's `max_silence_hours`. */
export const NO_COMMUNICATION = 'NO_COMMUNICATION';

/** Alarms a collector raises and clears on `meter.alarms.<org_id>.<device_id>`. */
export const DEVICE_ALARM_CODES = ['TAMPER', 'LOW_BATTERY', 'REVERSE_FLOW', 'DRY', 'MAGNETIC', 'OTHER'] as const;
export type DeviceAlarmCode = (typeof DEVICE_ALARM_CODES)[number];

/**
 * Codes a collector may raise and clear on `meter.alarms`: the device alarms,
 * and LEAK and BURST as the meter itself judges them (a wM-Bus status word).
 * Those share the episode of the platform's own rule of that code: one open
 * LEAK per channel, whoever raised it, closed by the first clear from either.
 */
export const ALARM_MESSAGE_CODES = [...DEVICE_ALARM_CODES, 'LEAK', 'BURST'] as const;
export type AlarmMessageCode = (typeof ALARM_MESSAGE_CODES)[number];

/** Every episode code, in the order a day's or a panel's alerts list them. */
export const EPISODE_CODES = [...READING_ALERT_CODES, NO_COMMUNICATION, ...DEVICE_ALARM_CODES] as const;
export type EpisodeCode = (typeof EPISODE_CODES)[number];

export type EpisodeState = 'open' | 'cleared';
