import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

/** Paths whose values never reach a log line, whatever logs them. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.secret',
  '*.secret_key',
  '*.secretKey',
  '*.token',
  '*.access_token',
  '*.client_secret',
  '*.credentials_json',
  '*.connection_string',
  '*.data',
  // A failed query's bound values (TypeORM's QueryFailedError): emails, keys, sealed material.
  '*.parameters',
  'password',
  'secret_key',
  'token',
];

export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

const BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

/** Lets Nest's own messages go through the same JSON logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    // Nest's start-up chatter (modules, routes) is only useful when debugging.
    const level = context && BOOT_CONTEXTS.has(context) ? 'debug' : 'info';
    this.logger[level]({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
