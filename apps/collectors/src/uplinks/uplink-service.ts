import { Inject, Injectable, Logger } from '@nestjs/common';
import { DEAD_LETTER_HEADERS, MAX_READINGS_PER_MESSAGE, UPLINK_DEAD_LETTER_HEADERS } from '@meter/contracts';
import { isDatabaseUnavailable } from '@meter/persistence';
import { decodeUplink } from '../decoders/decode';
import { inDeviceUnit } from '../decoders/device-unit';
import type { DecodedAlarm, Uplink, UplinkInput } from '../decoders/uplink';
import type { Collector } from '../credentials/collector';
import { AlarmMemory } from './alarm-memory';
import { BusPublisher, JetStreamUnavailable } from './bus-publisher';
import { CollectorMetrics } from './collector-metrics';
import { DeviceDirectory } from './device-directory';
import { messageId } from './message-id';
import { ReadingCoalescer } from './reading-coalescer';
import { UnmatchedRecorder } from './unmatched-recorder';

export type Transport = 'mqtt' | 'http';

/** What became of an uplink once JetStream has stored what it had to store. */
export type Outcome =
  | { kind: 'stored'; deviceId: number; readings: number; alarms: number }
  | { kind: 'ignored'; reason: string }
  | { kind: 'invalid'; reason: string }
  | { kind: 'unknown_device'; radioId: string };

/** The dead-letter subject of uplinks collectors could not use (an undecodable body, an unknown radio id). */
export const UPLINK_DEAD_LETTER_SUBJECT = 'meter.deadletter.uplinks';

/** JetStream or Postgres did not answer: nothing was acknowledged; the uplink may be sent again. */
export function isTransient(error: unknown): boolean {
  return error instanceof JetStreamUnavailable || isDatabaseUnavailable(error);
}

/**
 * One uplink of a signed-in collector (docs/collectors.md): decoded in its
 * credential's format, matched to a device of the credential's organization,
 * and published as section 3's messages; resolves once JetStream has stored
 * everything (throws a transient error otherwise, having acknowledged nothing).
 * What cannot be used is dead-lettered with the reason (over HTTP the 400 says
 * it instead).
 */
@Injectable()
export class UplinkService {
  private readonly logger = new Logger('uplinks');
  private readonly alarmMemory = new AlarmMemory();
  private readonly readings = new ReadingCoalescer((subject, payload) => this.bus.publish(subject, payload));
  private readonly counters = new Map<string, { inc(): void }>();

  constructor(
    @Inject(BusPublisher) private readonly bus: BusPublisher,
    @Inject(DeviceDirectory) private readonly directory: DeviceDirectory,
    @Inject(UnmatchedRecorder) private readonly unmatched: UnmatchedRecorder,
    @Inject(CollectorMetrics) private readonly metrics: CollectorMetrics,
  ) {}

  async accept(collector: Collector, input: Omit<UplinkInput, 'format' | 'mapping'>, transport: Transport): Promise<Outcome> {
    const outcome = await this.handle(collector, { ...input, format: collector.format, mapping: collector.mapping }, transport);
    this.counted(collector.format, transport, outcome.kind === 'invalid' ? 'dead_lettered' : outcome.kind).inc();
    return outcome;
  }

  /** The uplink counter of one label set, kept: prom-client hashes the labels on every inc() otherwise. */
  private counted(format: string, transport: Transport, outcome: string) {
    const key = `${format} ${transport} ${outcome}`;
    let child = this.counters.get(key);
    if (!child) this.counters.set(key, (child = this.metrics.uplinks.labels({ format, transport, outcome })));
    return child;
  }

  private async handle(collector: Collector, input: UplinkInput, transport: Transport): Promise<Outcome> {
    const decoded = decodeUplink(input);
    if (decoded.kind === 'ignored') return decoded;
    if (decoded.kind === 'invalid') {
      if (transport === 'mqtt') await this.deadLetter(collector, input, decoded.reason);
      return decoded;
    }
    const { uplink } = decoded;
    if (uplink.device.kind === 'device_id') return this.publish(collector, uplink, uplink.device.deviceId, undefined);
    const radioId = uplink.device.kind === 'dev_eui' ? uplink.device.devEui : uplink.device.wmbusId;
    const device = await this.directory.find(collector.orgId, uplink.device);
    if (!device) {
      await this.deadLetter(collector, input, 'unknown_device', { [UPLINK_DEAD_LETTER_HEADERS.radioId]: `${uplink.device.kind}:${radioId}` });
      this.unmatched.record(collector.orgId, collector.credentialId, uplink.device.kind, radioId);
      this.metrics.unmatched.inc({ collector: collector.credentialId });
      return { kind: 'unknown_device', radioId };
    }
    return this.publish(collector, uplink, device.deviceId, device.unit);
  }

  private async publish(collector: Collector, uplink: Uplink, deviceId: number, unit: Parameters<typeof inDeviceUnit>[1] | undefined): Promise<Outcome> {
    const readings =
      unit === undefined ? uplink.readings.map(({ read_at, value, channel }) => ({ read_at, value, channel })) : inDeviceUnit(uplink.readings, unit);
    const base = `${collector.orgId}.${deviceId}`;
    for (let i = 0; i < readings.length; i += MAX_READINGS_PER_MESSAGE)
      await this.readings.add(`meter.readings.${base}`, readings.slice(i, i + MAX_READINGS_PER_MESSAGE));
    const alarms: DecodedAlarm[] = uplink.alarmsAreStatus ? this.alarmMemory.changes(collector.orgId, deviceId, uplink.alarms) : uplink.alarms;
    for (const alarm of alarms) await this.bus.publish(`meter.alarms.${base}`, alarm);
    if (uplink.alarmsAreStatus) this.alarmMemory.remember(collector.orgId, deviceId, alarms);
    return { kind: 'stored', deviceId, readings: readings.length, alarms: alarms.length };
  }

  private async deadLetter(collector: Collector, input: UplinkInput, reason: string, extra: Record<string, string> = {}) {
    this.logger.warn(`uplink of collector ${collector.credentialId} dead-lettered: ${reason.slice(0, 300)}`);
    await this.bus.publish(
      UPLINK_DEAD_LETTER_SUBJECT,
      input.body,
      {
        [DEAD_LETTER_HEADERS.reason]: reason,
        [UPLINK_DEAD_LETTER_HEADERS.collector]: collector.credentialId,
        [UPLINK_DEAD_LETTER_HEADERS.org]: collector.orgId,
        ...(input.topic !== undefined ? { [UPLINK_DEAD_LETTER_HEADERS.topic]: input.topic } : {}),
        ...extra,
      },
      messageId(UPLINK_DEAD_LETTER_SUBJECT, collector.credentialId, input.topic ?? '', input.body),
    );
  }
}
