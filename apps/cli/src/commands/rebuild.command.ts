import { Command } from 'commander';
import { Progress } from '../progress';
import { action, UsageError } from '../usage';

/**
 * Rebuilds the derived columns of the consumption read model (intervals,
 * resets, running totals) from the stored readings, device by device, each
 * in its own transaction under the device's lock; safe while ingest runs.
 */
export const rebuildCommand = () =>
  new Command('rebuild')
    .description('recompute the read model intervals and running totals from the stored readings (all organizations or --org); progress on stderr')
    .option('--org <org-id>', 'only this organization')
    .action(
      action(async ({ org }: { org?: string }) => {
        const [{ loadConfig }, { ORG_ID }, { createDataSource }, { devicesToRebuild, ingestStore, rebuildDevice }] = await Promise.all([
          import('@meter/config'),
          import('@meter/contracts'),
          import('@meter/persistence'),
          import('@meter/ingest'),
        ]);
        if (org !== undefined && !ORG_ID.test(org)) throw new UsageError('--org must be an organization id of 1..64 characters [A-Za-z0-9_-]');
        const config = loadConfig();
        const ds = await createDataSource({ ...ingestStore, url: config.DATABASE_URL, poolSize: 2, applicationName: 'cli-rebuild' }).initialize();
        try {
          let changed = 0;
          const devices = await devicesToRebuild(ds, org);
          const progress = new Progress('rebuild', devices.length, 'devices');
          progress.start(org === undefined ? 'every organization' : `organization ${org}`);
          for (const device of devices) {
            changed += await ds.transaction((manager) => rebuildDevice(manager.queryRunner!, device.orgId, device.deviceId));
            progress.advance(1, `${changed} rows changed`);
          }
          progress.finish(`${changed} rows changed`);
          console.log(JSON.stringify({ devices: devices.length, rows_changed: changed }));
        } finally {
          await ds.destroy();
        }
      }),
    );
