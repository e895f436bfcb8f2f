import { Module } from '@nestjs/common';
import { AlertEventsRelay } from './alert-events-relay';
import { SilenceChecker } from './silence-checker';

/** Alert events to OUTBOUND_EVENTS and the clock's NO_COMMUNICATION check. */
@Module({ providers: [AlertEventsRelay, SilenceChecker], exports: [AlertEventsRelay] })
export class AlertsModule {}
