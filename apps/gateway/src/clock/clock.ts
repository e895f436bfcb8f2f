import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';

/**
 * The gateway's one clock: the "now" of the consumption routes and of the
 * signature timestamp check. The real clock, or TEST_NOW pinned (tests; the
 * env schema refuses it in production).
 */
export abstract class Clock {
  abstract now(): number;
}

class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }
}

export class FixedClock extends Clock {
  constructor(private readonly at: number) {
    super();
  }
  now(): number {
    return this.at;
  }
}

function clockFor(config: Pick<AppConfig, 'TEST_NOW'>): Clock {
  return config.TEST_NOW !== undefined ? new FixedClock(config.TEST_NOW) : new SystemClock();
}

/** Provides the Clock to every module of the gateway. */
@Global()
@Module({
  providers: [{ provide: Clock, inject: [APP_CONFIG], useFactory: (config: AppConfig) => clockFor(config) }],
  exports: [Clock],
})
export class ClockModule {}
