import { Documented, jsonBody, jsonResponse, noContent, notFound, problemResponse, problemThrownBy } from '@meter/http';
import { parseBody } from '../common/parse-body';
import { ConcurrencyConflict } from '../events/event-store';
import {
  collectorCredentialIdPath,
  collectorCredentialListSchema,
  createCollectorCredentialRequest,
  createdCollectorCredentialSchema,
  unmatchedUplinkListSchema,
  type CollectorCredential,
} from './collector-credential-schemas';

const ID = 'ccr_9sKd2LmQ7xVb4Rt1Nc8PzA';
const USERNAME = 'col_k7q2mz4xw9btr3pd';

const WMBUS: CollectorCredential = {
  id: ID,
  name: 'Harbour street receiver',
  format: 'wmbusmeters',
  mapping: {},
  username: USERNAME,
  status: 'active',
  created_at: '2026-11-24T08:12:30.551Z',
  revoked_at: null,
};

const TTN: CollectorCredential = {
  id: 'ccr_Pq4Lw8Zx2Nv6Bc1Ty5Rk3M',
  name: 'The Things Stack, north district',
  format: 'ttn',
  mapping: { value: '/meter/volume_l', unit: 'L' },
  username: 'col_a4vx8n2kq7mzr5td',
  status: 'revoked',
  created_at: '2026-10-11T16:40:02.104Z',
  revoked_at: '2026-11-02T09:03:57.870Z',
};

const UNKNOWN = problemResponse('`not_found`: the organization has no collector credential with this id.', {
  not_found: {
    summary: 'An id of no collector credential of this organization',
    problem: notFound('no collector credential ccr_N5vB8cX1zL4kJ7hG2fD9sA in this organization'),
  },
});

export const ApiCreateCollectorCredential = () =>
  Documented({
    summary: 'Create a collector credential',
    description:
      'A user name and password for one collector (a wM-Bus receiver, a LoRaWAN network server) of one format, sending readings of this organization ' +
      'over MQTT or HTTP (docs/collectors.md). The password is in this answer only: store it now.',
    request: {
      body: jsonBody('The credential to create.', createCollectorCredentialRequest, {
        wmbusmeters: { summary: 'A wmbusmeters receiver', value: { name: WMBUS.name, format: 'wmbusmeters' } },
        ttn: { summary: 'The Things Stack with a payload formatter giving litres', value: { name: TTN.name, format: 'ttn', mapping: TTN.mapping } },
      }),
    },
    responses: {
      201: jsonResponse('The credential, with its password.', createdCollectorCredentialSchema, {
        wmbusmeters: {
          summary: 'A wmbusmeters receiver',
          value: {
            id: ID,
            name: WMBUS.name,
            format: 'wmbusmeters',
            mapping: {},
            username: USERNAME,
            password: `${USERNAME}.EXAMPLE-x7Rk2Qp9Lm4Vt8Nw1Zc6Bd3Hs5Jf0Gy2Ta9Ue4Wq7`,
            created_at: WMBUS.created_at,
          },
        },
      }),
      400: problemResponse('`validation_failed`: the body is invalid; `errors` names each field.', {
        format: { summary: 'An unknown format', problem: problemThrownBy(() => parseBody(createCollectorCredentialRequest, { name: 'x', format: 'lorawan' })) },
        unit: {
          summary: 'A unit the platform does not know',
          problem: problemThrownBy(() => parseBody(createCollectorCredentialRequest, { name: 'x', format: 'chirpstack', mapping: { unit: 'kWh' } })),
        },
      }),
    },
  });

export const ApiListCollectorCredentials = () =>
  Documented({
    summary: "List the organization's collector credentials",
    description: 'Every collector credential, active and revoked, oldest first, without passwords.',
    responses: {
      200: jsonResponse('The credentials.', collectorCredentialListSchema, {
        two: { summary: 'A revoked and an active credential', value: { collector_credentials: [TTN, WMBUS] } },
      }),
    },
  });

export const ApiRevokeCollectorCredential = () =>
  Documented({
    summary: 'Revoke a collector credential',
    description: 'Collectors refuse the credential and close its MQTT connections within a second; revoking a revoked credential changes nothing.',
    request: { params: collectorCredentialIdPath },
    responses: {
      204: noContent('Revoked.'),
      404: UNKNOWN,
      409: problemResponse('`concurrent_modification`: the credential changed between read and write; retry.', {
        concurrent_modification: { summary: 'Changed by another writer meanwhile', problem: new ConcurrencyConflict(ID) },
      }),
    },
  });

export const ApiListUnmatchedUplinks = () =>
  Documented({
    summary: 'Radio ids of uplinks that matched no device',
    description:
      'Uplinks of this collector whose DevEUI or wM-Bus id names no device of the organization are dead-lettered as `unknown_device`. This lists the latest 100 such ids; register a device with that id in its `external_ids` and its next uplink is stored.',
    request: { params: collectorCredentialIdPath },
    responses: {
      200: jsonResponse('The unmatched radio ids.', unmatchedUplinkListSchema, {
        one: {
          summary: 'One meter not registered yet',
          value: {
            unmatched: [
              { radio_id_kind: 'wmbus_id', radio_id: '76348799', first_seen: '2026-11-24T08:15:02.000Z', last_seen: '2026-11-24T11:45:02.000Z', count: 15 },
            ],
          },
        },
      }),
      404: UNKNOWN,
    },
  });
