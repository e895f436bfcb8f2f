import { Global, Module } from '@nestjs/common';
import { IntegrationsClient } from './integrations-client';

/** The client of the integrations service, for the export and webhook routes' modules. */
@Global()
@Module({ providers: [IntegrationsClient], exports: [IntegrationsClient] })
export class IntegrationsClientModule {}
