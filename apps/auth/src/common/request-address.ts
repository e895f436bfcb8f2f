import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import type { FastifyRequest } from 'fastify';
import { clientAddress, parseTrustedProxies } from './client-address';

/** The caller's address per contract 6b: the socket, or X-Forwarded-For behind a trusted proxy. */
@Injectable()
export class RequestAddress {
  private readonly trusted;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.trusted = parseTrustedProxies(config.TRUSTED_PROXIES);
  }

  of(request: FastifyRequest): string {
    return clientAddress(request.socket.remoteAddress, request.headers['x-forwarded-for'], this.trusted);
  }
}
