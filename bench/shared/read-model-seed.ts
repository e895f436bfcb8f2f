import { ensurePartitions, ingestStore, writeBatch, type DeviceUpdate, type ReadingRow } from '@meter/ingest';
import { createDataSource } from '@meter/persistence';

/** One transaction's worth of what a benchmark puts in the read model. */
export interface SeedBatch {
  readings?: ReadingRow[];
  devices?: DeviceUpdate[];
}

/**
 * Writes the batches into the read model through ingest's own batch writer
 * (ingest is the one writer of its schema), each in its own transaction, as
 * the ingest service would store them: intervals, running totals, device
 * registration and the change log included. The alert rules are left out,
 * as the benchmarks measure reading, not judging.
 */
export async function seedReadModel(databaseUrl: string, batches: Iterable<SeedBatch>): Promise<void> {
  const ds = await createDataSource({ ...ingestStore, url: databaseUrl, poolSize: 1, applicationName: 'bench-seed' }).initialize();
  try {
    const partitions = new Set<number>();
    for (const { readings = [], devices = [] } of batches) {
      await ensurePartitions(
        (sql, params) => ds.query(sql, params),
        readings.map((r) => r.readAt),
        partitions,
      );
      await ds.transaction((manager) => writeBatch(manager.queryRunner!, readings, devices, [], { alertRules: false }));
    }
  } finally {
    await ds.destroy();
  }
}
