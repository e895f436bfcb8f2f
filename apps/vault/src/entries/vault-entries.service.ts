import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SealedDataError, type KeyRing } from '@meter/crypto';
import {
  isVaultEntryId,
  type VaultDeleteRequest,
  type VaultEntrySummary,
  type VaultEntryType,
  type VaultListRequest,
  type VaultOpenRequest,
  type VaultUpsertRequest,
  VAULT_ENTRY_INPUT,
  vaultEntryBody,
} from '@meter/contracts';
import { readInput } from '@meter/http';
import { appendAudit } from '../audit/audit-outbox';
import { AuditRelay } from '../audit/audit-relay';
import { findDataKey } from '../keys/data-keys';
import { RootKeyRing } from '../keys/root-key-ring';
import { Deadline } from '@meter/messaging';
import { openEntry, type EntryRef } from './entry-seal';
import { listedFields } from './mask';
import { storeEntry, type StoredEntry } from './store-entry';
import { entryInUse, entryNotFound, VaultFailure } from './vault-failure';

interface EntryRow {
  id: string;
  org_id: string;
  namespace: string;
  type: VaultEntryType;
  version: number;
  sealed_data: string;
  created_at: Date;
  updated_at: Date;
}

/** Two first upserts of the same (namespace, type) race on the unique key; the loser runs again as an update. */
async function retryOnUniqueViolation<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: string; driverError?: { code?: string } }).driverError?.code ?? (error as { code?: string }).code;
      if (code !== '23505' || attempt >= attempts) throw error;
    }
  }
}

/** Ids and the kind of failure only; SealedDataError messages never hold plaintext or keys. */
const unreadableMessage = (row: EntryRow, error: SealedDataError) =>
  `vault entry ${row.id} of organization ${row.org_id} does not open (${error.problem}): altered, moved or its key is missing`;

const refOf = (row: EntryRow): EntryRef => ({ org: row.org_id, entry: row.id, namespace: row.namespace, type: row.type, version: row.version });

/** The vault's use cases; every query is scoped to the requesting organization. */
@Injectable()
export class VaultEntriesService {
  private readonly logger = new Logger('vault-entries');

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(RootKeyRing) private readonly rootRing: RootKeyRing,
    @Inject(AuditRelay) private readonly relay: AuditRelay,
  ) {}

  /** Creates or replaces the entry of (namespace, type); its id stays, its version goes up. */
  async upsert(request: VaultUpsertRequest, deadline = Deadline.none): Promise<StoredEntry> {
    const validation = readInput(vaultEntryBody, request.entry, VAULT_ENTRY_INPUT);
    if (!validation.ok) {
      throw new VaultFailure({
        code: 'validation_failed',
        detail: validation.errors.map((e) => `${e.field}: ${e.message}`).join('; '),
        errors: validation.errors,
      });
    }
    // A new data key must be wrapped under the current active root key, even right after a rotation.
    await this.rootRing.refresh();
    const result = await retryOnUniqueViolation(() =>
      this.withRing((ring) =>
        this.dataSource.transaction(async (sql) => {
          const stored = await storeEntry(sql, ring, request.org_id, request.actor, validation.value);
          deadline.check(); // past it, the sender has given up: roll back rather than commit late
          return stored;
        }),
      ),
    );
    this.relay.nudge();
    return result;
  }

  /** The organization's entries: non-secret fields in clear, masked hints of the secrets. */
  async list(request: VaultListRequest): Promise<VaultEntrySummary[]> {
    const rows: EntryRow[] = await this.dataSource.query(
      `SELECT id, org_id, namespace, type, version, sealed_data, created_at, updated_at
       FROM vault.entries WHERE org_id = $1 ORDER BY namespace, type`,
      [request.org_id],
    );
    if (rows.length === 0) return [];
    const dataKey = await this.withRing((ring) => findDataKey(this.dataSource, ring, request.org_id)).catch((error: unknown) => {
      if (error instanceof SealedDataError) return undefined;
      throw error;
    });
    return rows.map((row) => {
      const summary = {
        id: row.id,
        namespace: row.namespace,
        type: row.type,
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
        version: row.version,
      };
      try {
        if (!dataKey) throw new SealedDataError('unknown-key', 'organization has no data key');
        return { ...summary, fields: listedFields(openEntry(dataKey, refOf(row), row.sealed_data)) };
      } catch (error) {
        if (!(error instanceof SealedDataError)) throw error;
        // Listed without hints rather than hiding it, so the admin can replace or delete it.
        this.logger.error(unreadableMessage(row, error));
        return { ...summary, fields: {}, unreadable: true };
      }
    });
  }

  /** Deletes the row, so the sealed data is gone; the audit event keeps only metadata. Refused while `in_use` names its (namespace, type). */
  async delete(request: VaultDeleteRequest, deadline = Deadline.none): Promise<{ id: string }> {
    if (!isVaultEntryId(request.entry_id)) throw entryNotFound();
    const deleted = await this.dataSource.transaction(async (sql) => {
      const [entry]: Pick<EntryRow, 'namespace' | 'type'>[] = await sql.query(
        `SELECT namespace, type FROM vault.entries WHERE org_id = $1 AND id = $2 FOR UPDATE`,
        [request.org_id, request.entry_id],
      );
      if (!entry) return undefined;
      const use = request.in_use?.find((u) => u.namespace === entry.namespace && u.type === entry.type);
      if (use) throw entryInUse(entry, use.integration_ids);
      const rows: Pick<EntryRow, 'id' | 'namespace' | 'type' | 'version'>[] = await sql.query(
        `WITH gone AS (DELETE FROM vault.entries WHERE org_id = $1 AND id = $2 RETURNING id, namespace, type, version) SELECT * FROM gone`,
        [request.org_id, request.entry_id],
      );
      const row = rows[0];
      if (!row) return undefined;
      await appendAudit(sql, 'entry.deleted', {
        org_id: request.org_id,
        actor: request.actor,
        entry_id: row.id,
        namespace: row.namespace,
        entry_type: row.type,
        version: row.version,
      });
      deadline.check(); // past it, the sender has given up: roll back rather than commit late
      return row;
    });
    if (!deleted) throw entryNotFound();
    this.relay.nudge();
    return { id: deleted.id };
  }

  /** The decrypted entry, for integration workers; every opening is audited. */
  async open(request: VaultOpenRequest) {
    const rows: EntryRow[] = await this.dataSource.query(
      `SELECT id, org_id, namespace, type, version, sealed_data, created_at, updated_at
       FROM vault.entries WHERE org_id = $1 AND namespace = $2 AND type = $3`,
      [request.org_id, request.namespace, request.type],
    );
    const row = rows[0];
    if (!row) throw new VaultFailure({ code: 'not_found', detail: `no ${request.type} entry in namespace ${request.namespace}` });
    let data: Record<string, string>;
    try {
      const dataKey = await this.withRing((ring) => findDataKey(this.dataSource, ring, request.org_id));
      if (!dataKey) throw new SealedDataError('unknown-key', 'organization has no data key');
      data = openEntry(dataKey, refOf(row), row.sealed_data);
    } catch (error) {
      if (!(error instanceof SealedDataError)) throw error;
      this.logger.error(unreadableMessage(row, error));
      throw new VaultFailure({ code: 'unreadable', detail: 'the sealed entry does not open; replace it' });
    }
    await appendAudit(this.dataSource, 'entry.opened', {
      org_id: row.org_id,
      actor: request.actor,
      entry_id: row.id,
      namespace: row.namespace,
      entry_type: row.type,
      version: row.version,
    });
    this.relay.nudge();
    return { id: row.id, namespace: row.namespace, type: row.type, version: row.version, data };
  }

  /** Runs work with the root ring; a wrap under a key this process has not seen yet reloads a development ring once. */
  private async withRing<T>(work: (ring: KeyRing) => Promise<T>): Promise<T> {
    try {
      return await work(this.rootRing.current());
    } catch (error) {
      if (error instanceof SealedDataError && error.problem === 'unknown-key' && (await this.rootRing.refresh())) {
        return work(this.rootRing.current());
      }
      throw error;
    }
  }
}
