import type { CredentialEvent } from '@meter/contracts';
import { parseCidr, type CidrRange } from '@meter/config';
import type { CredentialRecord } from './credential-record';

/** Opens a sealed secret of a credential; throws when it cannot. */
type SecretOpener = (sealed: string, orgId: string, credentialId: string) => string;

type ApplyOutcome = 'applied' | 'stale' | 'unknown-credential' | 'secret-unreadable';

/** The limits an event carries, as the record keeps them (absent in events older than the limits: none). */
function limits(payload: { expires_at?: string | null; allowed_origins?: string[]; device_ids?: number[] | null }) {
  return {
    expiresAt: payload.expires_at ? Date.parse(payload.expires_at) : null,
    allowedOrigins: [...(payload.allowed_origins ?? [])],
    deviceIds: payload.device_ids ? new Set(payload.device_ids) : null,
  };
}

function ranges(cidrs: readonly string[]): { allowedRanges: CidrRange[]; cidrsInvalid: boolean } {
  const parsed = cidrs.map(parseCidr);
  return {
    allowedRanges: parsed.filter((r): r is CidrRange => r !== undefined),
    cidrsInvalid: parsed.some((r) => r === undefined),
  };
}

/**
 * The gateway's in-memory view of every credential, by access key, folded
 * from the credential events in stream order. Redelivered or out-of-date
 * events (aggregate version not newer) change nothing, so replaying the
 * stream from the start is always safe.
 */
export class CredentialView {
  private readonly byAccessKey = new Map<string, CredentialRecord>();

  constructor(private readonly openSecret: SecretOpener) {}

  get size(): number {
    return this.byAccessKey.size;
  }

  find(accessKey: string): CredentialRecord | undefined {
    return this.byAccessKey.get(accessKey);
  }

  /** Whether an active credential lets browsers call from `origin` (a CORS preflight names no credential). */
  allowsOrigin(origin: string): boolean {
    for (const record of this.byAccessKey.values()) {
      if (record.status === 'active' && record.allowedOrigins.includes(origin)) return true;
    }
    return false;
  }

  apply(event: CredentialEvent): ApplyOutcome {
    const accessKey = event.payload.access_key;
    const current = this.byAccessKey.get(accessKey);
    if (current && event.version <= current.version) return 'stale';
    // Revocation is final: a late or re-sent creation never brings a credential back.
    if (current?.status === 'revoked' && event.type === 'credential.created') return 'stale';

    if (event.type === 'credential.created') {
      const p = event.payload;
      let secretKey: string | undefined;
      let outcome: ApplyOutcome = 'applied';
      if (p.type === 'secret') {
        try {
          secretKey = p.sealed_secret === null ? undefined : this.openSecret(p.sealed_secret, event.org_id, p.credential_id);
        } catch {
          secretKey = undefined;
        }
        if (secretKey === undefined) outcome = 'secret-unreadable';
      }
      this.byAccessKey.set(accessKey, {
        credentialId: p.credential_id,
        orgId: event.org_id,
        accessKey,
        type: p.type,
        scopes: [...p.scopes],
        allowedCidrs: [...p.allowed_cidrs],
        ...ranges(p.allowed_cidrs),
        secretKey,
        status: 'active',
        ...limits(p),
        version: event.version,
      });
      return outcome;
    }

    if (!current) return 'unknown-credential';
    switch (event.type) {
      case 'credential.revoked':
        this.byAccessKey.set(accessKey, { ...current, status: 'revoked', secretKey: undefined, version: event.version });
        return 'applied';
      case 'credential.cidrs_changed':
        this.byAccessKey.set(accessKey, {
          ...current,
          allowedCidrs: [...event.payload.allowed_cidrs],
          ...ranges(event.payload.allowed_cidrs),
          version: event.version,
        });
        return 'applied';
      case 'credential.settings_changed':
        this.byAccessKey.set(accessKey, { ...current, ...limits(event.payload), version: event.version });
        return 'applied';
      case 'credential.secret_resealed': {
        if (current.status === 'revoked') {
          this.byAccessKey.set(accessKey, { ...current, version: event.version });
          return 'applied';
        }
        let secretKey: string | undefined;
        try {
          secretKey = this.openSecret(event.payload.sealed_secret, current.orgId, current.credentialId);
        } catch {
          secretKey = undefined;
        }
        // The secret itself did not change; keep the one already opened if the new seal cannot be read.
        this.byAccessKey.set(accessKey, { ...current, secretKey: secretKey ?? current.secretKey, version: event.version });
        return secretKey === undefined ? 'secret-unreadable' : 'applied';
      }
    }
  }
}
