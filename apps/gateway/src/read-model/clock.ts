import type { AppConfig } from '@meter/config';

/** "Now" of the consumption routes: the real clock, or TEST_NOW pinned outside production (env schema refuses it there). */
export abstract class Clock {
  abstract now(): number;
}

export class SystemClock extends Clock {
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

export function clockFor(config: AppConfig): Clock {
  return config.TEST_NOW && config.NODE_ENV !== 'production' ? new FixedClock(Date.parse(config.TEST_NOW)) : new SystemClock();
}
