import { createSchemaMigration, type ServiceStore } from '@meter/persistence';
import { AlertEpisodes1764200000000 } from './alerts.migration';
import { DeviceAlarmLog1764900000000 } from './device-alarm-log.migration';
import { IngestJobs1765000000200 } from './ingest-jobs.migration';
import { DeviceSettings1764000000000 } from './device-settings.migration';
import { DevicesChangedNotify1763800000002 } from './devices-changed-notify.migration';
import { ExternalIds1764500000000 } from './external-ids.migration';
import { NoJit1763800000001 } from './no-jit.migration';
import { OrgLeadingKeys1764800000000 } from './org-leading-keys.migration';
import { ReadModel1763800000000 } from './read-model.migration';
import { ReadingChanges1764100000000 } from './reading-changes.migration';
import { ReadingChangesByTransaction1764400000000 } from './reading-changes-by-transaction.migration';
import { ReadingResets1764600000000 } from './reading-resets.migration';
import { ReadingChangesTruncate1764700000000 } from './reading-changes-truncate.migration';
import { ReadingDays1765100000000 } from './reading-days.migration';
import { ReadingDaysBackfill1765100000100 } from './reading-days-backfill.migration';
import { ReadingDaysSql1765100000200 } from './reading-days-sql.migration';
import { ReadingRowsRetired1765300000000 } from './reading-rows-retired.migration';
import { ReadingDayResets1765200000000 } from './reading-day-resets.migration';

/**
 * The read model's tables live in the `ingest` schema (ingest writes them;
 * the gateway and the integrations read them); migrations in order. The
 * schema name also names the migrations' bookkeeping table
 * (`public.ingest_migrations`), so it stays.
 */
export const ingestStore: ServiceStore = {
  schema: 'ingest',
  migrations: [
    createSchemaMigration('ingest'),
    ReadModel1763800000000,
    NoJit1763800000001,
    DevicesChangedNotify1763800000002,
    DeviceSettings1764000000000,
    ReadingChanges1764100000000,
    AlertEpisodes1764200000000,
    ReadingChangesByTransaction1764400000000,
    ExternalIds1764500000000,
    ReadingResets1764600000000,
    ReadingChangesTruncate1764700000000,
    OrgLeadingKeys1764800000000,
    DeviceAlarmLog1764900000000,
    IngestJobs1765000000200,
    ReadingDays1765100000000,
    ReadingDaysBackfill1765100000100,
    ReadingDaysSql1765100000200,
    ReadingDayResets1765200000000,
    ReadingRowsRetired1765300000000,
  ],
  entities: [],
};
