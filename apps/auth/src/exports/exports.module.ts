import { Module } from '@nestjs/common';
import { ExportsController } from './exports.controller';

/** `/integrations`: batch export routes forwarded to the integrations service over NATS. */
@Module({ controllers: [ExportsController] })
export class ExportsModule {}
