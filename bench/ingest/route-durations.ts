/**
 * The gateway's own `meter_http_request_duration_seconds` buckets of its successful
 * GETs, by route pattern: from request received to answer sent, as Fastify
 * times it. Read before and after a measurement, the difference says how much
 * of a tail the gateway itself spent, apart from the client and the machine.
 */
export type RouteBuckets = Map<string, Map<string, number>>;

const BUCKET_LINE = /^meter_http_request_duration_seconds_bucket\{(.*)\} (\d+(?:\.\d+)?)$/;

export function parseRouteBuckets(metrics: string): RouteBuckets {
  const routes: RouteBuckets = new Map();
  for (const line of metrics.split('\n')) {
    const match = BUCKET_LINE.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (labels.method !== 'GET' || labels.status_code !== '200' || labels.route === undefined || labels.le === undefined) continue;
    let buckets = routes.get(labels.route);
    if (!buckets) routes.set(labels.route, (buckets = new Map()));
    buckets.set(labels.le, Number(match[2]));
  }
  return routes;
}

export async function routeDurations(port: number): Promise<RouteBuckets> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  return parseRouteBuckets(await response.text());
}

/** Requests of `route` between the two readings, and how many the gateway answered within 5 and 10 ms. */
export function withinGateway(before: RouteBuckets, after: RouteBuckets, route: string): { total: number; within5ms: number; within10ms: number } {
  const delta = (le: string) => (after.get(route)?.get(le) ?? 0) - (before.get(route)?.get(le) ?? 0);
  return { total: delta('+Inf'), within5ms: delta('0.005'), within10ms: delta('0.01') };
}
