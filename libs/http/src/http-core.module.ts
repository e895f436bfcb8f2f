import { Global, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Metrics } from './metrics';
import { ProblemFilter } from './problem.filter';
import { ProbesController } from './probes.controller';
import { ReadinessRegistry } from './readiness';
import { UnavailableDependencies } from './unavailable-dependencies';

/** What every HTTP process has: probes, metrics and problem+json errors. */
@Global()
@Module({
  controllers: [ProbesController],
  providers: [ReadinessRegistry, Metrics, UnavailableDependencies, { provide: APP_FILTER, useClass: ProblemFilter }],
  exports: [ReadinessRegistry, Metrics, UnavailableDependencies],
})
export class HttpCoreModule {}
