import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { clientAddressOf } from '@meter/http';
import type { FastifyRequest } from 'fastify';

/** The caller's address: the socket, or X-Forwarded-For behind a trusted proxy (the one rule of libs/http). */
@Injectable()
export class RequestAddress {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** `unknown` for a request without a socket address, so it still has a throttle key of its own. */
  of(request: FastifyRequest): string {
    return clientAddressOf(request.raw, this.config.TRUSTED_PROXIES) ?? 'unknown';
  }
}
