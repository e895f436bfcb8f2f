import { createSchemaMigration, type ServiceStore } from '@meter/persistence';
import { ExportTables1764100000001 } from './1764100000001-export-tables';
import { ExportJobs1764100000002 } from './1764100000002-export-jobs';
import { Webhooks1764200000000 } from './webhooks.migration';
import { WebhookRetentionIndexes1764300000000 } from './1764300000000-webhook-retention-indexes';
import { ExportChanges1764400000001 } from './1764400000001-export-changes';
import { WebhookDeliveryAnswers1764500000010 } from './1764500000010-webhook-delivery-answers';
import { ExportScheduleQueue1764900000100 } from './1764900000100-export-schedule-queue';
import { WebhookRetentionQueue1764900000101 } from './1764900000101-webhook-retention-queue';

/** The integrations service's tables (exports, webhooks) live in the `integrations` schema; migrations in order. */
export const integrationsStore: ServiceStore = {
  schema: 'integrations',
  migrations: [
    createSchemaMigration('integrations'),
    ExportTables1764100000001,
    ExportJobs1764100000002,
    Webhooks1764200000000,
    WebhookRetentionIndexes1764300000000,
    ExportChanges1764400000001,
    WebhookDeliveryAnswers1764500000010,
    ExportScheduleQueue1764900000100,
    WebhookRetentionQueue1764900000101,
  ],
  entities: [],
};
