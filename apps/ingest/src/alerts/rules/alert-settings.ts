/** The device fields the rules read (in the device's unit), with the documented defaults. */
export interface AlertSettings {
  /** An hour is still when it holds at most this much. */
  leakThresholdPerHour: number;
  /** null: BURST is off. */
  burstThresholdPerHour: number | null;
  noFlowDays: number;
  maxSilenceHours: number;
  /** IANA zone of the device: NO_FLOW counts its local days. */
  timeZone: string;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  leakThresholdPerHour: 0,
  burstThresholdPerHour: null,
  noFlowDays: 30,
  maxSilenceHours: 48,
  timeZone: 'UTC',
};
