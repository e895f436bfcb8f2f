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
import { organizationScopes } from '../organizations/organization-store';
import { credentialView, type CredentialRow } from './credential-row';
import type { CreateCredentialRequest, CreatedCredential, Credential, UpdateCredentialRequest } from './credential-schemas';
import { checkOrigin } from './origin';
import { newAccessKey, newSecretKey } from './credential-secrets';
import { CredentialStamps } from './credential-stamps';
import { credentialsOf, findCredential, insertCredential, revokeCredential, updateCredentialSettings, type CredentialLimitColumns } from './credential-store';

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
    return organizationScopes(this.dataSource.manager, admin.orgId);
  }

  async create(admin: CurrentAdminInfo, request: CreateCredentialRequest): Promise<CreatedCredential> {
    const allowed = await this.availableScopes(admin);
    const errors: FieldError[] = [];
    request.scopes.forEach((scope, i) => {
      if (!allowed.includes(scope)) errors.push({ field: `scopes[${i}]`, message: `is not a scope this organization may use (${allowed.join(', ')})` });
      else if (request.scopes.indexOf(scope) !== i) errors.push({ field: `scopes[${i}]`, message: 'is repeated' });
    });
    const limits = checkLimits(request, errors, { expires_at: null, allowed_origins: [], device_ids: null });
    if (errors.length) throw validationFailed(errors);

    const id = `cred_${randomToken(16)}`;
    const accessKey = newAccessKey(request.type);
    // A public credential signs with the literal `public` and is never HMAC-checked, so it gets no secret.
    const secretKey = request.type === 'secret' ? newSecretKey() : null;
    const sealedSecret = secretKey === null ? null : seal(this.ring, secretKey, associatedData(credentialSecretAad(admin.orgId, id)));
    const createdAt = new Date();
    await this.dataSource.transaction(async (manager) => {
      await insertCredential(manager, {
        id,
        orgId: admin.orgId,
        name: request.name,
        type: request.type,
        accessKey,
        scopes: request.scopes,
        sealedSecret,
        createdAt,
        ...limits,
      });
      await appendEvents(
        manager,
        [
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
              ...limits,
            },
            createdAt,
          ),
        ],
        admin.adminId,
      );
    });
    this.outbox.nudge();
    return {
      ...credentialView({
        id,
        org_id: admin.orgId,
        name: request.name,
        type: request.type,
        access_key: accessKey,
        scopes: request.scopes,
        allowed_cidrs: [],
        status: 'active',
        created_at: createdAt,
        revoked_at: null,
        last_used_at: null,
        ...limitColumnsOfRow(limits),
        version: 1,
      }),
      secret_key: secretKey,
    };
  }

  async list(admin: CurrentAdminInfo): Promise<Credential[]> {
    return (await credentialsOf(this.dataSource.manager, admin.orgId)).map(credentialView);
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
      assertUpdated(await revokeCredential(manager, id, credential.version, revokedAt), id);
      await appendEvents(
        manager,
        [
          newEvent(
            'credential.revoked',
            { aggregateId: id, orgId: admin.orgId, version: credential.version + 1 },
            { credential_id: id, access_key: credential.access_key, revoked_at: revokedAt.toISOString() },
            revokedAt,
          ),
        ],
        admin.adminId,
      );
      return credential.version + 1;
    });
    this.outbox.nudge();
    await this.stamps.raise(id, version, true);
  }

  /**
   * PATCH: the fields present change, the others stay. The allow-list travels
   * as `credential.cidrs_changed`, the rest as `credential.settings_changed`
   * (each with its full state); answered once every gateway applies it.
   */
  async update(admin: CurrentAdminInfo, id: string, request: UpdateCredentialRequest): Promise<Credential> {
    const errors: FieldError[] = [];
    const cidrs: string[] = [];
    (request.allowed_cidrs ?? []).forEach((entry, i) => {
      const result = normalizeCidr(entry);
      if (!result.ok) errors.push({ field: `allowed_cidrs[${i}]`, message: result.message });
      else if (!cidrs.includes(result.cidr)) cidrs.push(result.cidr);
    });
    const limitsAsked = request.expires_at !== undefined || request.allowed_origins !== undefined || request.device_ids !== undefined;
    checkLimits(request, errors, { expires_at: null, allowed_origins: [], device_ids: null });
    if (errors.length) throw validationFailed(errors);
    const updated = await this.dataSource.transaction(async (manager) => {
      const credential = await this.find(manager, admin, id);
      if (credential.status === 'revoked') {
        throw new ProblemException(409, 'credential_revoked', 'the credential is revoked and can no longer change');
      }
      const limits = checkLimits(request, [], limitsOfRow(credential));
      const name = request.name ?? credential.name;
      const allowedCidrs = request.allowed_cidrs !== undefined ? cidrs : credential.allowed_cidrs;
      const settingsChanged = request.name !== undefined || limitsAsked;
      const version = credential.version + (request.allowed_cidrs !== undefined ? 1 : 0) + (settingsChanged ? 1 : 0);
      assertUpdated(await updateCredentialSettings(manager, id, credential.version, { name, allowedCidrs, ...limits }, version), id);
      const events = [];
      const aggregate = (v: number) => ({ aggregateId: id, orgId: admin.orgId, version: v });
      if (request.allowed_cidrs !== undefined) {
        events.push(
          newEvent('credential.cidrs_changed', aggregate(credential.version + 1), {
            credential_id: id,
            access_key: credential.access_key,
            allowed_cidrs: allowedCidrs,
          }),
        );
      }
      if (settingsChanged) {
        events.push(newEvent('credential.settings_changed', aggregate(version), { credential_id: id, access_key: credential.access_key, name, ...limits }));
      }
      await appendEvents(manager, events, admin.adminId);
      return { ...credential, name, allowed_cidrs: allowedCidrs, ...limitColumnsOfRow(limits), version };
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
    const row = await findCredential(manager, admin.orgId, id, forUpdate);
    if (!row) throw missing();
    return row;
  }
}

/**
 * The limits a request asks for over `current` (fields absent keep theirs),
 * normalised: origins checked and without repeats, device ids ascending and
 * without repeats. Problems go to `errors`, naming the field.
 */
function checkLimits(
  request: { expires_at?: string | null; allowed_origins?: string[]; device_ids?: number[] | null },
  errors: FieldError[],
  current: CredentialLimitColumns,
): CredentialLimitColumns {
  const origins: string[] = [];
  (request.allowed_origins ?? []).forEach((entry, i) => {
    const result = checkOrigin(entry);
    if (!result.ok) errors.push({ field: `allowed_origins[${i}]`, message: result.message });
    else if (!origins.includes(result.origin)) origins.push(result.origin);
  });
  return {
    expires_at: request.expires_at === undefined ? current.expires_at : request.expires_at === null ? null : new Date(request.expires_at).toISOString(),
    allowed_origins: request.allowed_origins === undefined ? current.allowed_origins : origins,
    device_ids:
      request.device_ids === undefined ? current.device_ids : request.device_ids === null ? null : [...new Set(request.device_ids)].sort((a, b) => a - b),
  };
}

function limitsOfRow(row: CredentialRow): CredentialLimitColumns {
  return {
    expires_at: row.expires_at?.toISOString() ?? null,
    allowed_origins: row.allowed_origins,
    device_ids: row.device_ids?.map(Number) ?? null,
  };
}

function limitColumnsOfRow(limits: CredentialLimitColumns): Pick<CredentialRow, 'expires_at' | 'allowed_origins' | 'device_ids'> {
  return {
    expires_at: limits.expires_at === null ? null : new Date(limits.expires_at),
    allowed_origins: limits.allowed_origins,
    device_ids: limits.device_ids?.map(String) ?? null,
  };
}
