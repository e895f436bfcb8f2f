import { z } from 'zod';
import { validationFailed } from '@meter/http';

export const MAX_DASHBOARD_DEVICES = 100;

/** The devices of POST /meter/v1/dashboard: 1..100 of them. */
export const dashboardRequest = z
  .object({
    devices: z
      .array(z.object({ device_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }))
      .min(1)
      .max(MAX_DASHBOARD_DEVICES),
  })
  .meta({ id: 'DashboardRequest' });

export type DashboardRequest = z.output<typeof dashboardRequest>;

export function parseDashboardRequest(body: unknown): DashboardRequest {
  const parsed = dashboardRequest.safeParse(body);
  if (parsed.success) return parsed.data;
  throw validationFailed(parsed.error.issues.slice(0, 10).map((i) => ({ field: i.path.length ? i.path.join('.') : 'body', message: i.message })));
}
