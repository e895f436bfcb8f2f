import { Module } from '@nestjs/common';
import { MonthProjectionService } from './month-projection.service';
import { ProjectionController } from './projection.controller';

@Module({ controllers: [ProjectionController], providers: [MonthProjectionService], exports: [MonthProjectionService] })
export class ProjectionModule {}
