import { Module } from '@nestjs/common';
import { AlertsController } from './alerts.controller';
import { DeviceRadioIds } from './device-radio-ids.service';
import { DevicesController } from './devices.controller';
import { FleetReadModel } from './fleet-read-model';

/** `/devices` and `/alerts`: the fleet routes of the console, from the consumption read model; radio id edits go to ingest over the bus. */
@Module({ controllers: [DevicesController, AlertsController], providers: [FleetReadModel, DeviceRadioIds] })
export class FleetModule {}
