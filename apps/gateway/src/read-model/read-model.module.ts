import { Global, Module } from '@nestjs/common';
import { ClockModule } from '../clock/clock';
import { DeviceCache } from './device-cache';
import { DeviceChanges } from './device-changes';
import { ReadModel } from './read-model';

@Global()
@Module({
  imports: [ClockModule],
  providers: [ReadModel, { provide: DeviceCache, useValue: new DeviceCache() }, DeviceChanges],
  exports: [ReadModel],
})
export class ReadModelModule {}
