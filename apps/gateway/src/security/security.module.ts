import { Module } from '@nestjs/common';
import { CredentialFeed } from '../credentials/credential-feed.service';
import { CredentialLookup } from '../credentials/credential-lookup';
import { CredentialRingModule } from '../credentials/credential-ring';
import { CredentialUsage } from '../credentials/credential-usage';
import { GatewayRateLimiter } from '../rate-limit/gateway-rate-limiter';
import { ClockModule } from '../clock/clock';
import { SecurityPipeline } from './security-pipeline';

/** SVC-HMAC verification, scopes, allow-lists and rate limits of every gateway request. */
@Module({
  imports: [CredentialRingModule, ClockModule],
  providers: [CredentialFeed, CredentialLookup, CredentialUsage, GatewayRateLimiter, SecurityPipeline],
  exports: [SecurityPipeline, CredentialFeed],
})
export class SecurityModule {}
