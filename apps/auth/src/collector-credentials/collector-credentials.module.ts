import { Module } from '@nestjs/common';
import { CollectorCredentialsController } from './collector-credentials.controller';
import { CollectorCredentialsService } from './collector-credentials.service';
import { CollectorLookupResponder } from './collector-lookup.responder';

@Module({
  controllers: [CollectorCredentialsController],
  providers: [CollectorCredentialsService, CollectorLookupResponder],
})
export class CollectorCredentialsModule {}
