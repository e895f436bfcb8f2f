import { Module } from '@nestjs/common';
import { ProjectionModule } from '../projection/projection.module';
import { DashboardController } from './dashboard.controller';
import { DashboardService } from './dashboard.service';

@Module({ imports: [ProjectionModule], controllers: [DashboardController], providers: [DashboardService] })
export class DashboardModule {}
