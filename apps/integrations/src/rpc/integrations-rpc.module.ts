import { Global, Module } from '@nestjs/common';
import { IntegrationsRpc } from './integrations-rpc';

@Global()
@Module({ providers: [IntegrationsRpc], exports: [IntegrationsRpc] })
export class IntegrationsRpcModule {}
