import { Controller, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { COLLECTOR_FORMATS } from '@meter/contracts';
import { clientAddressOf } from '@meter/http';
import { CollectorAuthenticator } from '../credentials/collector-authenticator';
import { UplinkService } from '../uplinks/uplink-service';
import { JetStreamUnavailable } from '../uplinks/bus-publisher';
import { collectProblems } from './collect-problems';
import { ApiCollect } from './collect.openapi';
import type { UplinkAccepted } from './collect.schemas';

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
  @ApiCollect()
  async collect(@Param('format') format: string, @Query('event') event: string | undefined, @Req() request: FastifyRequest): Promise<UplinkAccepted> {
    if (!(COLLECTOR_FORMATS as readonly string[]).includes(format)) throw collectProblems.unknownFormat(format);
    const collector = await this.signIn(request);
    if (collector.format !== format) throw collectProblems.wrongFormat(collector.format);
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    if (body.length === 0) throw collectProblems.undecodable('the body is empty');
    try {
      const outcome = await this.uplinks.accept(collector, { body, receivedAt: Date.now(), event: typeof event === 'string' ? event : undefined }, 'http');
      if (outcome.kind === 'invalid') throw collectProblems.undecodable(outcome.reason);
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
      throw collectProblems.jetstreamUnavailable();
    }
  }

  private async signIn(request: FastifyRequest) {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer +(\S+)$/i.exec(header) : null;
    if (!match) throw collectProblems.unauthorized('send the collector password as Authorization: Bearer <password>');
    const result = await this.authenticator.signIn(undefined, match[1], clientAddressOf(request, this.config.TRUSTED_PROXIES) ?? 'unknown');
    if (result.ok) return result.collector;
    if (result.reason === 'throttled') throw collectProblems.throttled(result.retryAfterSeconds);
    if (result.reason === 'unavailable') throw collectProblems.authUnavailable();
    throw collectProblems.unauthorized('unknown or revoked collector credential');
  }
}
