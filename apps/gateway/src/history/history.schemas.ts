import { periodSchema } from '@meter/device-reports';
import { deviceIdQuery } from '../request/request-params.openapi';

export { dailyHistorySchema, threeMonthHistorySchema, type DailyHistory, type ThreeMonthHistory } from '@meter/device-reports';

/** The query of GET /meter/v1/history (@meter/device-reports resolves the period). */
export const dailyHistoryQuery = deviceIdQuery.extend({ period: periodSchema });
