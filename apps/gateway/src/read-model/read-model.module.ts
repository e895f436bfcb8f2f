import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { Clock, clockFor } from './clock';
import { DeviceCache } from './device-cache';
import { DeviceChanges } from './device-changes';
import { ReadModel } from './read-model';

@Global()
@Module({
  providers: [
    ReadModel,
    { provide: DeviceCache, useValue: new DeviceCache() },
    DeviceChanges,
    { provide: Clock, inject: [APP_CONFIG], useFactory: (config: AppConfig) => clockFor(config) },
  ],
  exports: [ReadModel, Clock],
})
export class ReadModelModule {}
