import { runService } from '@meter/platform';
import { IngestModule } from './ingest.module';

void runService({
  name: 'ingest',
  port: (config) => config.INGEST_PORT,
  dependencies: ['postgres', 'nats'],
  module: (config) => IngestModule.forRoot(config),
});
