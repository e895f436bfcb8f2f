import { Module } from '@nestjs/common';
import { AlertsController } from './alerts.controller';
import { DevicesController } from './devices.controller';
import { FleetReadModel } from './fleet-read-model';

/** `/devices` and `/alerts`: the fleet read routes of the console, from the consumption read model. */
@Module({ controllers: [DevicesController, AlertsController], providers: [FleetReadModel] })
export class FleetModule {}
