import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { COLLECTOR_CREDENTIAL_ID } from '@meter/contracts';
import { hashPassword, randomToken } from '@meter/crypto';
import { notFound } from '@meter/http';
import { listUnmatchedUplinks, type UnmatchedUplink } from '@meter/collectors';
import { appendEvents, assertUpdated } from '../events/event-store';
import { newEvent } from '../events/new-event';
import { OutboxRelayService } from '../events/outbox-relay.service';
import type { CurrentAdminInfo } from '../sessions/current-admin';
import { collectorCredentialView, type CollectorCredentialRow } from './collector-credential-row';
import { collectorCredentialsOf, findCollectorCredential, insertCollectorCredential, revokeCollectorCredential } from './collector-credential-store';
import type { CollectorCredential, CreateCollectorCredentialRequest, CreatedCollectorCredential } from './collector-credential-schemas';
import { newCollectorPassword, newCollectorUsername } from './collector-secrets';

/**
 * Collector credentials of the caller's organization (docs/collectors.md);
 * every query is scoped to it. The password is shown once and kept only as
 * an Argon2id hash, as admin passwords are.
 */
@Injectable()
export class CollectorCredentialsService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxRelayService) private readonly outbox: OutboxRelayService,
  ) {}

  async create(admin: CurrentAdminInfo, request: CreateCollectorCredentialRequest): Promise<CreatedCollectorCredential> {
    const id = `ccr_${randomToken(16)}`;
    const username = newCollectorUsername();
    const password = newCollectorPassword(username);
    const passwordHash = await hashPassword(password);
    const mapping = request.mapping ?? {};
    const createdAt = new Date();
    await this.dataSource.transaction(async (manager) => {
      await insertCollectorCredential(manager, {
        id,
        orgId: admin.orgId,
        name: request.name,
        format: request.format,
        mapping,
        username,
        passwordHash,
        createdAt,
      });
      await appendEvents(
        manager,
        [
          newEvent(
            'collector_credential.created',
            { aggregateId: id, orgId: admin.orgId, version: 1 },
            { credential_id: id, name: request.name, format: request.format, username, created_at: createdAt.toISOString() },
            createdAt,
          ),
        ],
        admin.adminId,
      );
    });
    this.outbox.nudge();
    return { id, name: request.name, format: request.format, mapping, username, password, created_at: createdAt.toISOString() };
  }

  async list(admin: CurrentAdminInfo): Promise<CollectorCredential[]> {
    return (await collectorCredentialsOf(this.dataSource.manager, admin.orgId)).map(collectorCredentialView);
  }

  /** Revoking a revoked credential changes nothing. Collectors close its connections when the event reaches them. */
  async revoke(admin: CurrentAdminInfo, id: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const credential = await this.find(manager, admin, id, true);
      if (credential.status === 'revoked') return;
      const revokedAt = new Date();
      assertUpdated(await revokeCollectorCredential(manager, id, credential.version, revokedAt), id);
      await appendEvents(
        manager,
        [
          newEvent(
            'collector_credential.revoked',
            { aggregateId: id, orgId: admin.orgId, version: credential.version + 1 },
            { credential_id: id, username: credential.username, revoked_at: revokedAt.toISOString() },
            revokedAt,
          ),
        ],
        admin.adminId,
      );
    });
    this.outbox.nudge();
  }

  async unmatched(admin: CurrentAdminInfo, id: string): Promise<UnmatchedUplink[]> {
    await this.find(this.dataSource.manager, admin, id, false);
    return listUnmatchedUplinks(this.dataSource, admin.orgId, id);
  }

  /** Another organization's credential is as unknown as one that never existed. */
  private async find(manager: EntityManager, admin: CurrentAdminInfo, id: string, forUpdate: boolean): Promise<CollectorCredentialRow> {
    const missing = () => notFound(`no collector credential ${id} in this organization`);
    if (!COLLECTOR_CREDENTIAL_ID.test(id)) throw missing();
    const row = await findCollectorCredential(manager, admin.orgId, id, forUpdate);
    if (!row) throw missing();
    return row;
  }
}
