import { Inject, Injectable } from '@nestjs/common';
import { credentialSecretAad, type credentialScope } from '@meter/contracts';
import type { z } from 'zod';
import { associatedData, randomToken, seal, type KeyRing } from '@meter/crypto';
import { notFound, ProblemException, validationFailed, type FieldError } from '@meter/http';
import { DataSource, type EntityManager } from 'typeorm';
import { appendEvents, assertUpdated } from '../events/event-store';
import { newEvent } from '../events/new-event';
import { OutboxRelayService } from '../events/outbox-relay.service';
import type { CurrentAdminInfo } from '../sessions/current-admin';
import { normalizeCidr } from './cidr';
import { CREDENTIAL_RING } from './credential-keyring';
import { CREDENTIAL_COLUMNS, credentialView, type CredentialRow } from './credential-row';
import type { CreateCredentialRequest, CreatedCredential, Credential } from './credential-schemas';
import { newAccessKey, newSecretKey } from './credential-secrets';
import { CredentialStamps } from './credential-stamps';

type CredentialScope = z.infer<typeof credentialScope>;

const CREDENTIAL_ID = /^cred_[A-Za-z0-9_-]{22}$/;

/** API credentials of the caller's organization; every query is scoped to it. */
@Injectable()
export class CredentialsService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(CREDENTIAL_RING) private readonly ring: KeyRing,
    @Inject(OutboxRelayService) private readonly outbox: OutboxRelayService,
    @Inject(CredentialStamps) private readonly stamps: CredentialStamps,
  ) {}

  async availableScopes(admin: CurrentAdminInfo): Promise<string[]> {
    const [org] = (await this.dataSource.query('SELECT scopes FROM auth.organizations WHERE id = $1', [admin.orgId])) as { scopes: string[] }[];
    return org?.scopes ?? [];
  }

  async create(admin: CurrentAdminInfo, request: CreateCredentialRequest): Promise<CreatedCredential> {
    const allowed = await this.availableScopes(admin);
    const errors: FieldError[] = [];
    request.scopes.forEach((scope, i) => {
      if (!allowed.includes(scope)) errors.push({ field: `scopes[${i}]`, message: `is not a scope this organization may use (${allowed.join(', ')})` });
      else if (request.scopes.indexOf(scope) !== i) errors.push({ field: `scopes[${i}]`, message: 'is repeated' });
    });
    if (errors.length) throw validationFailed(errors);

    const id = `cred_${randomToken(16)}`;
    const accessKey = newAccessKey(request.type);
    // A public credential signs with the literal `public` and is never HMAC-checked, so it gets no secret.
    const secretKey = request.type === 'secret' ? newSecretKey() : null;
    const sealedSecret = secretKey === null ? null : seal(this.ring, secretKey, associatedData(credentialSecretAad(admin.orgId, id)));
    const createdAt = new Date();
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO auth.credentials (id, org_id, name, type, access_key, scopes, allowed_cidrs, sealed_secret, status, created_at, version)
         VALUES ($1, $2, $3, $4, $5, $6, '{}', $7, 'active', $8, 1)`,
        [id, admin.orgId, request.name, request.type, accessKey, request.scopes, sealedSecret, createdAt],
      );
      await appendEvents(manager, [
        newEvent(
          'credential.created',
          { aggregateId: id, orgId: admin.orgId, version: 1 },
          {
            credential_id: id,
            name: request.name,
            type: request.type,
            access_key: accessKey,
            scopes: request.scopes as CredentialScope[],
            allowed_cidrs: [],
            sealed_secret: sealedSecret,
            created_at: createdAt.toISOString(),
          },
          createdAt,
        ),
      ]);
    });
    this.outbox.nudge();
    return {
      id,
      access_key: accessKey,
      secret_key: secretKey,
      type: request.type,
      scopes: request.scopes,
      allowed_cidrs: [] as string[],
      created_at: createdAt.toISOString(),
    };
  }

  async list(admin: CurrentAdminInfo): Promise<Credential[]> {
    const rows = (await this.dataSource.query(`SELECT ${CREDENTIAL_COLUMNS} FROM auth.credentials WHERE org_id = $1 ORDER BY created_at, id`, [
      admin.orgId,
    ])) as CredentialRow[];
    return rows.map(credentialView);
  }

  async get(admin: CurrentAdminInfo, id: string): Promise<Credential> {
    return credentialView(await this.find(this.dataSource.manager, admin, id, false));
  }

  /**
   * Revoking a revoked credential changes nothing (but stamps it again). The
   * sealed secret is destroyed with the revocation. Answered only once every
   * gateway refuses the credential (CredentialStamps).
   */
  async revoke(admin: CurrentAdminInfo, id: string): Promise<void> {
    const version = await this.dataSource.transaction(async (manager) => {
      const credential = await this.find(manager, admin, id);
      if (credential.status === 'revoked') return credential.version;
      const revokedAt = new Date();
      assertUpdated(
        await manager.query(
          `UPDATE auth.credentials SET status = 'revoked', revoked_at = $3, sealed_secret = NULL, version = version + 1
            WHERE id = $1 AND version = $2`,
          [id, credential.version, revokedAt],
        ),
        id,
      );
      await appendEvents(manager, [
        newEvent(
          'credential.revoked',
          { aggregateId: id, orgId: admin.orgId, version: credential.version + 1 },
          { credential_id: id, access_key: credential.access_key, revoked_at: revokedAt.toISOString() },
          revokedAt,
        ),
      ]);
      return credential.version + 1;
    });
    this.outbox.nudge();
    await this.stamps.raise(id, version, true);
  }

  async setAllowedCidrs(admin: CurrentAdminInfo, id: string, entries: string[]): Promise<Credential> {
    const errors: FieldError[] = [];
    const cidrs: string[] = [];
    entries.forEach((entry, i) => {
      const result = normalizeCidr(entry);
      if (!result.ok) errors.push({ field: `allowed_cidrs[${i}]`, message: result.message });
      else if (!cidrs.includes(result.cidr)) cidrs.push(result.cidr);
    });
    if (errors.length) throw validationFailed(errors);
    const updated = await this.dataSource.transaction(async (manager) => {
      const credential = await this.find(manager, admin, id);
      if (credential.status === 'revoked') {
        throw new ProblemException(409, 'credential_revoked', 'the credential is revoked; its allow-list can no longer change');
      }
      assertUpdated(
        await manager.query('UPDATE auth.credentials SET allowed_cidrs = $3, version = version + 1 WHERE id = $1 AND version = $2', [
          id,
          credential.version,
          cidrs,
        ]),
        id,
      );
      await appendEvents(manager, [
        newEvent(
          'credential.cidrs_changed',
          { aggregateId: id, orgId: admin.orgId, version: credential.version + 1 },
          { credential_id: id, access_key: credential.access_key, allowed_cidrs: cidrs },
        ),
      ]);
      return { ...credential, allowed_cidrs: cidrs, version: credential.version + 1 };
    });
    this.outbox.nudge();
    await this.stamps.raise(id, updated.version, false);
    return credentialView(updated);
  }

  /**
   * Another organization's credential is as unknown as one that never
   * existed. Writers lock the row so concurrent requests queue instead of
   * failing the version check; the check still guards every other writer.
   */
  private async find(manager: EntityManager, admin: CurrentAdminInfo, id: string, forUpdate = true): Promise<CredentialRow> {
    const missing = () => notFound(`no credential ${id} in this organization`);
    if (!CREDENTIAL_ID.test(id)) throw missing();
    const lock = forUpdate ? ' FOR UPDATE' : '';
    const [row] = (await manager.query(`SELECT ${CREDENTIAL_COLUMNS} FROM auth.credentials WHERE id = $1 AND org_id = $2${lock}`, [
      id,
      admin.orgId,
    ])) as CredentialRow[];
    if (!row) throw missing();
    return row;
  }
}
