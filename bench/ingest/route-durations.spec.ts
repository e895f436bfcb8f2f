import { describe, expect, it } from 'vitest';
import { parseRouteBuckets, withinGateway } from './route-durations';

const scrape = (history10ms: number, historyAll: number) =>
  [
    '# HELP meter_http_request_duration_seconds HTTP request latency by method, route and status code',
    `meter_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/meter/v1/history",status_code="200"} ${history10ms - 1}`,
    `meter_http_request_duration_seconds_bucket{le="0.01",method="GET",route="/meter/v1/history",status_code="200"} ${history10ms}`,
    `meter_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/meter/v1/history",status_code="200"} ${historyAll}`,
    'meter_http_request_duration_seconds_bucket{le="0.01",method="GET",route="/meter/v1/history",status_code="404"} 7',
    'meter_http_request_duration_seconds_bucket{le="0.01",method="POST",route="/meter/v1/dashboard",status_code="200"} 3',
    'meter_http_request_duration_seconds_sum{method="GET",route="/meter/v1/history",status_code="200"} 0.5',
  ].join('\n');

describe('the gateway histogram around a measurement', () => {
  it('counts the successful GETs of one route between two scrapes, within 5 and 10 ms', () => {
    const before = parseRouteBuckets(scrape(10, 12));
    const after = parseRouteBuckets(scrape(325, 330));
    expect(withinGateway(before, after, '/meter/v1/history')).toEqual({ total: 318, within5ms: 315, within10ms: 315 });
  });

  it('knows no route it has not seen, and counts nothing for it', () => {
    const scraped = parseRouteBuckets(scrape(1, 1));
    expect([...scraped.keys()]).toEqual(['/meter/v1/history']);
    expect(withinGateway(scraped, scraped, '/meter/v1/projection')).toEqual({ total: 0, within5ms: 0, within10ms: 0 });
  });
});
