import { Injectable } from '@nestjs/common';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { buildInfo } from './build-info';

/** One Prometheus registry per process: default metrics plus HTTP latency. */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'meter_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const build = new Gauge({
      name: 'meter_build_info',
      help: 'Always 1: the version and commit this process runs',
      labelNames: ['version', 'commit'] as const,
      registers: [this.registry],
    });
    build.set(buildInfo(), 1);
  }
}
