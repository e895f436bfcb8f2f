import { Module } from '@nestjs/common';
import { ProjectionModule } from '../projection/projection.module';
import { HistoryController } from './history.controller';
import { HistoryService } from './history.service';

@Module({ imports: [ProjectionModule], controllers: [HistoryController], providers: [HistoryService] })
export class HistoryModule {}
