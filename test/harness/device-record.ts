import type { DeviceRecord } from '@meter/read-model';

/** A device record for tests: the registration defaults (docs/read-model.md), any field overridden. */
export const deviceRecord = (deviceId: number, fields: Partial<DeviceRecord> = {}): DeviceRecord => ({
  deviceId,
  name: `Device ${deviceId}`,
  channels: 1,
  activatedAt: 0,
  serie: 'water',
  unit: 'm³',
  decimalPlaces: 3,
  timeZone: 'UTC',
  pricePerUnit: 0,
  currencySymbol: '€',
  tariff: null,
  leakThresholdPerHour: 0,
  burstThresholdPerHour: null,
  noFlowDays: 30,
  maxSilenceHours: 48,
  ...fields,
});
