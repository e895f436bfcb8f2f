import { Controller, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { COLLECTOR_FORMATS } from '@meter/contracts';
import { clientAddressOf, ProblemException } from '@meter/http';
import { CollectorAuthenticator } from '../credentials/collector-authenticator';
import { UplinkService } from '../uplinks/uplink-service';
import { JetStreamUnavailable } from '../uplinks/bus-publisher';

/** Seconds a network server is asked to wait when JetStream or auth did not answer. */
const RETRY_AFTER_SECONDS = '2';

/** The answer of an accepted uplink. */
export interface UplinkAccepted {
  outcome: 'stored' | 'ignored' | 'unknown_device';
  readings: number;
  alarms: number;
  detail?: string;
}

/**
 * HTTP uplinks (docs/collectors.md): `POST /collect/v1/<format>` with
 * `Authorization: Bearer <password>`, answered 202 once JetStream has stored
 * the uplink. Bodies up to 1 MiB (413 beyond), taken as bytes and decoded by
 * the same decoders as MQTT.
 */
@Controller('collect/v1')
export class CollectController {
  constructor(
    @Inject(CollectorAuthenticator) private readonly authenticator: CollectorAuthenticator,
    @Inject(UplinkService) private readonly uplinks: UplinkService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':format')
  @HttpCode(202)
  async collect(@Param('format') format: string, @Query('event') event: string | undefined, @Req() request: FastifyRequest): Promise<UplinkAccepted> {
    if (!(COLLECTOR_FORMATS as readonly string[]).includes(format))
      throw new ProblemException(404, 'not_found', `no uplink route for format ${format}; use one of ${COLLECTOR_FORMATS.join(', ')}`);
    const collector = await this.signIn(request);
    if (collector.format !== format) {
      throw new ProblemException(403, 'wrong_format', `this collector credential is for format ${collector.format}; post to /collect/v1/${collector.format}`);
    }
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    if (body.length === 0) throw new ProblemException(400, 'undecodable_uplink', 'the body is empty');
    try {
      const outcome = await this.uplinks.accept(collector, { body, receivedAt: Date.now(), event: typeof event === 'string' ? event : undefined }, 'http');
      if (outcome.kind === 'invalid') throw new ProblemException(400, 'undecodable_uplink', outcome.reason);
      if (outcome.kind === 'stored') return { outcome: 'stored', readings: outcome.readings, alarms: outcome.alarms };
      if (outcome.kind === 'ignored') return { outcome: 'ignored', readings: 0, alarms: 0, detail: outcome.reason };
      return {
        outcome: 'unknown_device',
        readings: 0,
        alarms: 0,
        detail: `no device of this organization has the radio id ${outcome.radioId}; the uplink was dead-lettered`,
      };
    } catch (error) {
      // Postgres away is the problem filter's 503 database_unavailable, as on every route.
      if (!(error instanceof JetStreamUnavailable)) throw error;
      throw new ProblemException(
        503,
        'jetstream_unavailable',
        'the message bus did not store the uplink; send it again after Retry-After (a repeat is stored once)',
        {},
        { 'Retry-After': RETRY_AFTER_SECONDS },
      );
    }
  }

  private async signIn(request: FastifyRequest) {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer +(\S+)$/i.exec(header) : null;
    const unauthorized = (detail: string) => new ProblemException(401, 'unauthorized', detail, {}, { 'WWW-Authenticate': 'Bearer' });
    if (!match) throw unauthorized('send the collector password as Authorization: Bearer <password>');
    const result = await this.authenticator.signIn(undefined, match[1], clientAddressOf(request, this.config.TRUSTED_PROXIES) ?? 'unknown');
    if (result.ok) return result.collector;
    if (result.reason === 'throttled') {
      throw new ProblemException(
        429,
        'too_many_failures',
        'too many failed sign-ins from this address; try again later',
        { retry_after: result.retryAfterSeconds },
        { 'Retry-After': String(result.retryAfterSeconds) },
      );
    }
    if (result.reason === 'unavailable') {
      throw new ProblemException(
        503,
        'auth_unavailable',
        'the credential check is unavailable; try again after Retry-After',
        {},
        { 'Retry-After': RETRY_AFTER_SECONDS },
      );
    }
    throw unauthorized('unknown or revoked collector credential');
  }
}
