import { CREDENTIAL_SCOPES } from '@meter/contracts';
import {
  Documented,
  jsonBody,
  jsonResponse,
  noContent,
  notFound,
  ProblemException,
  problemResponse,
  problemThrownBy,
  RETRY_AFTER_HEADER,
  validationFailed,
} from '@meter/http';
import { parseBody } from '../common/parse-body';
import { ConcurrencyConflict } from '../events/event-store';
import { normalizeCidr } from './cidr';
import { checkOrigin } from './origin';
import { credentialSyncUnavailable } from './credential-stamps';
import {
  availableScopesSchema,
  createCredentialRequest,
  createdCredentialSchema,
  credentialIdPath,
  credentialListSchema,
  credentialSchema,
  updateCredentialRequest,
  type Credential,
} from './credential-schemas';

const ID = 'cred_4fQm7yX2bN9pLw3cR8kT1A';
const SCOPE = 'meter:consumption:read';
const NEW_CREDENTIAL = { name: 'Billing export', type: 'secret' as const, scopes: [SCOPE] };

/** A secret credential in use, fenced to two ranges. */
const ACTIVE: Credential = {
  id: ID,
  name: 'Billing export',
  type: 'secret',
  access_key: 'sk_live_EXAMPLE_d3kQ9mZ2vT7xR4pW8nB1cF6h',
  scopes: [SCOPE],
  allowed_cidrs: ['203.0.113.0/24', '2001:db8:40::/48'],
  allowed_origins: [],
  device_ids: null,
  expires_at: '2027-06-30T00:00:00.000Z',
  status: 'active',
  created_at: '2026-11-21T09:17:42.318Z',
  revoked_at: null,
  last_used_at: '2026-11-21T09:31:05.000Z',
};

/** A public credential that was revoked. */
const REVOKED: Credential = {
  id: 'cred_Hx2pR8vK5nQ1wZ7cT4mB9g',
  name: 'Lobby display',
  type: 'public',
  access_key: 'pk_live_EXAMPLE_Lm4tW9xQ2bV7nK1rC8pZ5yJ3',
  scopes: [SCOPE],
  allowed_cidrs: [],
  allowed_origins: ['https://lobby.riverside.example'],
  device_ids: [1042, 1057],
  expires_at: null,
  status: 'revoked',
  created_at: '2026-10-02T14:05:11.907Z',
  revoked_at: '2026-11-03T08:00:29.114Z',
  last_used_at: '2026-11-02T18:44:51.000Z',
};

const UNKNOWN = problemResponse('`not_found`: the organization has no credential with this id.', {
  not_found: { summary: 'An id of no credential of this organization', problem: notFound('no credential cred_N5vB8cX1zL4kJ7hG2fD9sA in this organization') },
});

const originMessage = (() => {
  const result = checkOrigin('https://lobby.riverside.example/widget');
  if (result.ok) throw new Error('an origin with a path is valid');
  return result.message;
})();

const BAD_CIDR = '10.1.2.3/8';
const cidrMessage = (() => {
  const result = normalizeCidr(BAD_CIDR);
  if (result.ok) throw new Error(`${BAD_CIDR} is a valid range`);
  return result.message;
})();

export const ApiAvailableScopes = () =>
  Documented({
    summary: 'Scopes the organization may grant',
    description: 'The scopes a new credential of this organization may hold.',
    responses: {
      200: jsonResponse('The scopes.', availableScopesSchema, { scopes: { summary: 'The consumption scope', value: { scopes: [...CREDENTIAL_SCOPES] } } }),
    },
  });

export const ApiCreateCredential = () =>
  Documented({
    summary: 'Create an API credential',
    description:
      'Issues an access key and, for a secret credential, the secret key it signs gateway requests with. The secret key is in this answer only: store it now.',
    request: {
      body: jsonBody('The credential to create.', createCredentialRequest, {
        secret: { summary: 'A secret credential for a server', value: NEW_CREDENTIAL },
        public: {
          summary: 'A public credential (no secret) for a browser widget on one site, limited to two meters',
          value: { name: 'Lobby display', type: 'public', scopes: [SCOPE], allowed_origins: ['https://lobby.riverside.example'], device_ids: [1042, 1057] },
        },
      }),
    },
    responses: {
      201: jsonResponse('The credential, with its secret_key.', createdCredentialSchema, {
        secret: {
          summary: 'A secret credential',
          value: {
            ...ACTIVE,
            allowed_cidrs: [],
            expires_at: null,
            last_used_at: null,
            secret_key: 'EXAMPLE-secret-T4nqXv9Lw2Hc7Rk1Pz8Ym3Bd6Fs0',
          },
        },
        public: {
          summary: 'A public credential for a browser widget, limited to two meters',
          value: { ...REVOKED, status: 'active', revoked_at: null, last_used_at: null, secret_key: null },
        },
      }),
      400: problemResponse('`validation_failed`: the body is invalid or names a scope the organization may not use; `errors` names each field.', {
        scope: {
          summary: 'A scope the organization may not use',
          problem: validationFailed([{ field: 'scopes[0]', message: `is not a scope this organization may use (${SCOPE})` }]),
        },
        empty_name: { summary: 'An empty name', problem: problemThrownBy(() => parseBody(createCredentialRequest, { ...NEW_CREDENTIAL, name: ' ' })) },
        unknown_field: {
          summary: 'A field the route does not take',
          problem: problemThrownBy(() => parseBody(createCredentialRequest, { ...NEW_CREDENTIAL, allowed_ips: ['10.0.0.0/8'] })),
        },
      }),
    },
  });

export const ApiListCredentials = () =>
  Documented({
    summary: "List the organization's credentials",
    description: 'Every credential, active and revoked, oldest first, without secrets.',
    responses: {
      200: jsonResponse('The credentials.', credentialListSchema, {
        two: { summary: 'A revoked and an active credential', value: { credentials: [REVOKED, ACTIVE] } },
      }),
    },
  });

export const ApiGetCredential = () =>
  Documented({
    summary: 'Read one credential',
    description: 'One credential of the organization, without its secret.',
    request: { params: credentialIdPath },
    responses: {
      200: jsonResponse('The credential.', credentialSchema, { active: { summary: 'An active credential', value: ACTIVE } }),
      404: UNKNOWN,
    },
  });

/** A revocation or an allow-list change committed, whose stamp Redis could not take (docs/gateway-security.md). */
const SYNC_UNAVAILABLE = problemResponse(
  '`credential_sync_unavailable`: the change is saved and reaches the gateways within about a second, but it could not be made to hold for the ' +
    'very next request (Redis unavailable). Repeat the same request after `Retry-After` seconds to confirm it.',
  { credential_sync_unavailable: { summary: 'Saved, not yet confirmed on every gateway', problem: credentialSyncUnavailable() } },
  RETRY_AFTER_HEADER,
);

export const ApiUpdateCredential = () =>
  Documented({
    summary: 'Change a credential: name, expiry, allowed ranges, origins and devices',
    description:
      'Changes the fields present; the others stay. `allowed_cidrs`: IPv4 and IPv6 CIDRs or single addresses, stored canonical and without repeats ' +
      '(an empty list allows any address). `expires_at`: after it the gateway answers 401 `credential_expired` (null: never). `allowed_origins`: ' +
      'exact browser origins (empty: none). `device_ids`: the only devices the credential sees (null: all). The gateway applies the change before ' +
      'this answer (or within a second, with a 503).',
    request: {
      params: credentialIdPath,
      body: jsonBody('The fields to change.', updateCredentialRequest, {
        two_ranges: { summary: 'An office range and an IPv6 prefix', value: { allowed_cidrs: ['203.0.113.0/24', '2001:db8:40::/48'] } },
        any_address: { summary: 'Allow any address again', value: { allowed_cidrs: [] } },
        rename_and_expire: {
          summary: 'Rename it and let it expire at the end of June',
          value: { name: 'Billing export 2027', expires_at: '2027-06-30T00:00:00Z' },
        },
        widget: {
          summary: 'Serve a browser widget on one site, for two meters',
          value: { allowed_origins: ['https://lobby.riverside.example'], device_ids: [1042, 1057] },
        },
      }),
    },
    responses: {
      200: jsonResponse('The credential as it is now.', credentialSchema, { fenced: { summary: 'The credential with its new ranges', value: ACTIVE } }),
      400: problemResponse('`validation_failed`: a field is invalid (a range, an origin, a date, a device id); `errors` names each one.', {
        host_bits: { summary: `${BAD_CIDR}: host bits under the prefix`, problem: validationFailed([{ field: 'allowed_cidrs[0]', message: cidrMessage }]) },
        not_a_list: {
          summary: 'allowed_cidrs is not a list',
          problem: problemThrownBy(() => parseBody(updateCredentialRequest, { allowed_cidrs: '203.0.113.0/24' })),
        },
        origin_with_path: {
          summary: 'An origin with a path',
          problem: validationFailed([{ field: 'allowed_origins[0]', message: originMessage }]),
        },
        bad_expiry: { summary: 'expires_at without a time', problem: problemThrownBy(() => parseBody(updateCredentialRequest, { expires_at: '2027-06-30' })) },
        nothing: { summary: 'An empty body', problem: problemThrownBy(() => parseBody(updateCredentialRequest, {})) },
      }),
      404: UNKNOWN,
      409: problemResponse('The credential cannot change: `credential_revoked` (a revoked credential keeps its list) or `concurrent_modification` (retry).', {
        credential_revoked: {
          summary: 'A revoked credential',
          problem: new ProblemException(409, 'credential_revoked', 'the credential is revoked and can no longer change'),
        },
        concurrent_modification: { summary: 'Changed by another writer meanwhile', problem: new ConcurrencyConflict(ID) },
      }),
      503: SYNC_UNAVAILABLE,
    },
  });

export const ApiRevokeCredential = () =>
  Documented({
    summary: 'Revoke a credential',
    description: 'The gateway refuses the credential within a second and its sealed secret is destroyed; revoking a revoked credential changes nothing.',
    request: { params: credentialIdPath },
    responses: {
      204: noContent('Revoked.'),
      404: UNKNOWN,
      409: problemResponse('`concurrent_modification`: the credential changed between read and write; retry.', {
        concurrent_modification: { summary: 'Changed by another writer meanwhile', problem: new ConcurrencyConflict(ID) },
      }),
      503: SYNC_UNAVAILABLE,
    },
  });
