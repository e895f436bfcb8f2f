import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { Metrics } from '@meter/http';

/** What collectors count (docs/operations.md, "Collectors"). */
@Injectable()
export class CollectorMetrics {
  /** Every uplink by format, transport and what became of it. */
  readonly uplinks: Counter<'format' | 'transport' | 'outcome'>;
  /** Uplinks whose radio id matched no device, per collector credential. */
  readonly unmatched: Counter<'collector'>;
  readonly signInsRefused: Counter<'reason'>;
  /** MQTT publishes refused for a topic outside the credential's format. */
  readonly topicsRefused: Counter<'collector'>;
  readonly connections: Gauge;
  /** Publishes to JetStream that failed (it did not answer in time); MQTT tries them again. */
  readonly publishFailures: Counter;

  constructor(@Inject(Metrics) metrics: Metrics) {
    const registers = [metrics.registry];
    this.uplinks = new Counter({
      name: 'meter_collectors_uplinks_total',
      help: 'Uplinks received, by format, transport (mqtt, http) and outcome (stored, ignored, dead_lettered, unknown_device)',
      labelNames: ['format', 'transport', 'outcome'],
      registers,
    });
    this.unmatched = new Counter({
      name: 'meter_collectors_unmatched_uplinks_total',
      help: 'Uplinks whose radio id matched no device of the organization (dead-lettered as unknown_device), per collector credential',
      labelNames: ['collector'],
      registers,
    });
    this.signInsRefused = new Counter({
      name: 'meter_collectors_sign_ins_refused_total',
      help: 'Refused MQTT CONNECTs and HTTP uplinks, by reason (bad_credentials, throttled, unavailable)',
      labelNames: ['reason'],
      registers,
    });
    this.topicsRefused = new Counter({
      name: 'meter_collectors_topics_refused_total',
      help: "MQTT publishes outside the credential's topics (the connection is closed), per collector credential",
      labelNames: ['collector'],
      registers,
    });
    this.connections = new Gauge({ name: 'meter_collectors_mqtt_connections', help: 'Signed-in MQTT connections', registers });
    this.publishFailures = new Counter({
      name: 'meter_collectors_publish_failures_total',
      help: 'JetStream publishes that failed or timed out (HTTP answered 503; MQTT withheld the PUBACK and tried again)',
      registers,
    });
  }
}
