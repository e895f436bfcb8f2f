import { Command } from 'commander';
import { action, integerOption } from '../usage';

/**
 * Runs the backfill of the compact reading store to its end in the
 * foreground, the work ingest's periodic job does 20 s at a time: batch by
 * batch under the devices' locks, so safe while ingest runs, and resumable
 * (docs/read-model.md, "The compact store and its backfill").
 */
export const readingsBackfillCommand = () =>
  new Command('backfill')
    .description('fill the compact reading store from the readings stored before it, to the end (ingest may run); progress on stderr')
    .option('--batch <channels>', 'channels per transaction (default: READINGS_BACKFILL_BATCH_CHANNELS)')
    .action(
      action(async ({ batch }: { batch?: string }) => {
        const [{ loadConfig }, { createDataSource }, { backfillReadingDays, ingestStore }] = await Promise.all([
          import('@meter/config'),
          import('@meter/persistence'),
          import('@meter/ingest'),
        ]);
        const config = loadConfig();
        const batchChannels = batch === undefined ? config.READINGS_BACKFILL_BATCH_CHANNELS : integerOption(batch, '--batch', 1, 10_000);
        const ds = await createDataSource({ ...ingestStore, url: config.DATABASE_URL, poolSize: 2, applicationName: 'cli-readings-backfill' }).initialize();
        try {
          let channels = 0;
          let lastLine = Date.now();
          const run = await backfillReadingDays(ds, {
            batchChannels,
            onStep: (step) => {
              if (step.kind === 'channels') {
                channels += step.channels;
                if (Date.now() - lastLine < 1000) return;
                lastLine = Date.now();
                process.stderr.write(`readings backfill: ${step.month}: ${channels.toLocaleString('en-US')} channels so far\n`);
              } else if (step.kind === 'month-done') {
                process.stderr.write(`readings backfill: ${step.month} done: ${channels.toLocaleString('en-US')} channels\n`);
                channels = 0;
              }
            },
          });
          console.log(JSON.stringify({ finished: run.finished, batches: run.batches, channels: run.channels, day_rows: run.days, readings: run.readings }));
        } finally {
          await ds.destroy();
        }
      }),
    );
