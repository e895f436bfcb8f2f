import { roundDecimal } from '@meter/consumption';
import type { DeviceProjection } from './month-projection.service';

/** Spec 2.6, single-device form; the bulk form omits cost and currency. */
export function projectionBody(p: DeviceProjection, withCost: boolean) {
  const places = p.device.decimalPlaces;
  const body = {
    device_id: String(p.device.deviceId),
    projected_value: roundDecimal(p.total.projected_value, places),
    ...(withCost ? { projected_cost: roundDecimal(p.total.projected_cost, 2) } : {}),
    unit: p.device.unit,
    ...(withCost ? { currency_symbol: p.device.currencySymbol } : {}),
    days_used_for_calculation: p.total.days_used_for_calculation,
    total_days_in_month: p.total.total_days_in_month,
    average_daily_consumption: roundDecimal(p.total.average_daily_consumption, places),
    calculation_date: p.total.calculation_date,
    projection_date: p.total.projection_date,
  };
  return body;
}
