import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { DevicesController } from './devices.controller';
import { PAGE_TOKEN_KEYS, pageTokenKeys } from './page-token-keys';

@Module({
  controllers: [DevicesController],
  providers: [{ provide: PAGE_TOKEN_KEYS, inject: [APP_CONFIG], useFactory: (config: AppConfig) => pageTokenKeys(config) }],
})
export class DevicesModule {}
