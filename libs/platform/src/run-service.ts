import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DynamicModule, Type } from '@nestjs/common';
import { LogController } from 'fastify';
import { loadConfigOrExit, type AppConfig } from '@meter/config';
import { createLogger, installHttpHooks, Metrics, PinoNestLogger, requestIdFor } from '@meter/http';
import { DependencyUnreachable, preflight, type Dependency } from './preflight';

/** The gateway's and management API's body limit; larger bodies get 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface ServiceDefinition {
  name: 'gateway' | 'auth' | 'vault' | 'ingest';
  port: (config: AppConfig) => number;
  dependencies: Dependency[];
  module: (config: AppConfig) => Type | DynamicModule;
  /** Adapter-level set-up that must happen before routes are registered. */
  configure?: (app: NestFastifyApplication, config: AppConfig) => void | Promise<void>;
}

/**
 * Starts one process of the platform: validated config, preflight of its
 * servers, Nest on Fastify, and a graceful stop on SIGTERM/SIGINT that
 * finishes within SHUTDOWN_TIMEOUT_MS.
 */
export async function runService(definition: ServiceDefinition): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  const fail = (message: string, error?: unknown) => {
    logger.fatal(error instanceof Error && !(error instanceof DependencyUnreachable) ? { err: error } : {}, message);
    process.stderr.write(`${definition.name}: ${message}\n`);
    process.exit(1);
  };

  try {
    await preflight(config, definition.dependencies);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }

  let app: NestFastifyApplication;
  try {
    const adapter = new FastifyAdapter({
      loggerInstance: logger,
      bodyLimit: BODY_LIMIT_BYTES,
      genReqId: requestIdFor,
      // Our own onResponse hook logs one line per request, without probe noise.
      logController: new LogController({ disableRequestLogging: true }),
      return503OnClosing: true,
    });
    app = await NestFactory.create<NestFastifyApplication>(definition.module(config), adapter, {
      logger: new PinoNestLogger(logger),
      abortOnError: false,
    });
    installHttpHooks(app.getHttpAdapter().getInstance(), app.get(Metrics));
    await definition.configure?.(app, config);
    await app.listen({ port: definition.port(config), host: config.HTTP_HOST });
  } catch (error) {
    return fail(`failed to start: ${error instanceof Error ? error.message : String(error)}`, error);
  }
  logger.info({ port: definition.port(config) }, `${definition.name} listening`);

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS).unref();
    try {
      await app.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
