import { loadConfigOrExit } from '@meter/config';
import { ORG_ID } from '@meter/contracts';
import { createDataSource } from '@meter/persistence';
import { devicesToRebuild, rebuildDevice } from '@meter/readings';
import { parseFlags, UsageError, type Command } from '../command';
import { ingestStore } from '../../../ingest/src/migrations';

/**
 * Rebuilds the derived columns of the consumption read model (intervals,
 * resets, running totals) from the stored readings, device by device, each
 * in its own transaction under the device's lock; safe while ingest runs.
 */
export const rebuildCommand: Command = {
  name: 'rebuild',
  summary: 'recompute the read model intervals and running totals from the stored readings (all organizations or --org)',
  usage: '[--org ORG_ID]',
  async run(args) {
    const org = parseFlags({ args, options: { org: { type: 'string' } }, strict: true }).values.org;
    if (org !== undefined && !ORG_ID.test(org)) throw new UsageError('--org must be an organization id of 1..64 characters [A-Za-z0-9_-]');
    const config = loadConfigOrExit();
    const ds = await createDataSource({ ...ingestStore, url: config.DATABASE_URL, poolSize: 2, applicationName: 'cli-rebuild' }).initialize();
    try {
      let changed = 0;
      const devices = await devicesToRebuild(ds, org);
      for (const device of devices) {
        changed += await ds.transaction((manager) => rebuildDevice(manager.queryRunner!, device.orgId, device.deviceId));
      }
      console.log(JSON.stringify({ devices: devices.length, rows_changed: changed }));
    } finally {
      await ds.destroy();
    }
  },
};
