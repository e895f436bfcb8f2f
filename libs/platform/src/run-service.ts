import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, exitOnConfigError, loadConfigOrExit, type AppConfig } from '@meter/config';
import type { KeyRingName } from '@meter/crypto';
import { createLogger } from '@meter/http';
import { createHttpApp } from './create-http-app';
import { DependencyUnreachable, preflight, type Dependency } from './preflight';

export interface ServiceDefinition {
  name: 'gateway' | 'auth' | 'vault' | 'ingest' | 'integrations' | 'collectors';
  port: (config: AppConfig) => number;
  dependencies: Dependency[];
  module: (config: AppConfig) => Type | DynamicModule;
  /** The key rings the process loads: checked with the rest of the configuration. */
  keyRings?: KeyRingName[];
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
  exitOnConfigError(() => checkKeyRings(config, definition.keyRings ?? []));
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
    app = await createHttpApp(definition.module(config), logger, { requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS });
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

/**
 * A process that holds a key ring needs a real one in production: a missing
 * ring stops it with one line naming the variable, like any other
 * configuration error, before any server is contacted. (A bad ring value is
 * refused by the configuration schema already.)
 */
function checkKeyRings(config: AppConfig, names: readonly KeyRingName[]): void {
  for (const name of names) {
    if (config[name] === undefined && config.NODE_ENV === 'production') throw new ConfigError(name, 'is required in production');
  }
}
