import { effectiveTariff, roundDecimal, volumeFormat, type VolumeFormat } from '@meter/consumption';
import type { DeviceProjection } from './device-projection';
import type { BulkProjection, Projection } from './projection.schemas';

/**
 * The single-device form (Projection); the bulk form (BulkProjection) omits cost and currency.
 * Volumes are written by `volumes` (X-Unit's unit; absent, the device's); the cost is money and the
 * same in any unit, in the currency of the device's tariff (or its own currency without one).
 */
export function projectionBody(p: DeviceProjection, withCost: true, volumes?: VolumeFormat): Projection;
export function projectionBody(p: DeviceProjection, withCost: false, volumes?: VolumeFormat): BulkProjection;
export function projectionBody(p: DeviceProjection, withCost: boolean, volumes = volumeFormat(p.device.unit)): Projection | BulkProjection {
  const places = p.device.decimalPlaces;
  const body = {
    device_id: String(p.device.deviceId),
    projected_value: volumes.round(p.total.projected_value, places),
    ...(withCost ? { projected_cost: roundDecimal(p.total.projected_cost, 2) } : {}),
    unit: volumes.unit,
    ...(withCost ? { currency_symbol: effectiveTariff(p.device).currency_symbol } : {}),
    days_used_for_calculation: p.total.days_used_for_calculation,
    total_days_in_month: p.total.total_days_in_month,
    average_daily_consumption: volumes.round(p.total.average_daily_consumption, places),
    calculation_date: p.total.calculation_date,
    projection_date: p.total.projection_date,
  };
  return body;
}
