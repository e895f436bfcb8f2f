import { Documented, jsonResponse, ProblemException, problemResponse, RETRY_AFTER_HEADER } from '@meter/http';
import { collectProblems } from './collect-problems';
import { collectPath, collectQuery, uplinkAcceptedSchema, uplinkBody } from './collect.schemas';

const WMBUSMETERS_IZAR = {
  media: 'water',
  meter: 'izar',
  name: 'watermeter',
  id: '18444343',
  total_m3: 312.811,
  current_alarms: 'no_alarm',
  timestamp: '2021-11-03T15:02:37Z',
};

export const ApiCollect = () =>
  Documented({
    summary: 'Send one uplink',
    description:
      "One uplink in the collector credential's format, as the network server or receiver sends it (docs/collectors.md): " +
      '`native` `{device_id, readings?, alarms?}`, a wmbusmeters telegram, a ChirpStack v4 integration event, a Things Stack uplink message. ' +
      'Answered `202` once JetStream has stored it; a repeat is stored once. The body is read as bytes whatever its `Content-Type`, up to 1 MiB.',
    request: {
      params: collectPath,
      query: collectQuery,
      body: {
        description: "The format's own JSON.",
        required: true,
        content: {
          'application/json': {
            schema: uplinkBody,
            examples: {
              native: {
                summary: 'native: a reading of device 42',
                value: { device_id: 42, readings: [{ read_at: '2026-11-21T10:00:00Z', value: '1234.567', channel: 1 }] },
              },
              wmbusmeters: { summary: 'wmbusmeters: an izar telegram', value: WMBUSMETERS_IZAR },
            },
          },
        },
      },
    },
    responses: {
      202: jsonResponse('Stored in JetStream (or acknowledged and ignored).', uplinkAcceptedSchema, {
        stored: { summary: 'A reading stored', value: { outcome: 'stored', readings: 1, alarms: 0 } },
        unknown_device: {
          summary: 'No device of the organization has its radio id',
          value: {
            outcome: 'unknown_device',
            readings: 0,
            alarms: 0,
            detail: 'no device of this organization has the radio id 18444343; the uplink was dead-lettered',
          },
        },
        ignored: {
          summary: 'A ChirpStack event other than up',
          value: { outcome: 'ignored', readings: 0, alarms: 0, detail: 'ChirpStack event join carries no reading' },
        },
      }),
      400: problemResponse('`undecodable_uplink`: the body is not the format, or names no register value.', {
        undecodable_uplink: {
          summary: 'A wmbusmeters telegram without total_m3',
          problem: collectProblems.undecodable('no register value: the telegram has no total_m3 (or total_<unit>) field'),
        },
      }),
      401: problemResponse(
        '`unauthorized`: no `Authorization: Bearer <password>`, or an unknown or revoked collector credential.',
        { unauthorized: { summary: 'A revoked credential', problem: collectProblems.unauthorized('unknown or revoked collector credential') } },
        { 'WWW-Authenticate': { required: true, description: 'The scheme to authenticate with.', schema: { type: 'string' }, example: 'Bearer' } },
      ),
      403: problemResponse("`wrong_format`: the route is not the credential's format.", {
        wrong_format: { summary: 'A ttn credential posting to /collect/v1/chirpstack', problem: collectProblems.wrongFormat('ttn') },
      }),
      404: problemResponse('`not_found`: no such format.', {
        not_found: { summary: '/collect/v1/lorawan', problem: collectProblems.unknownFormat('lorawan') },
      }),
      413: problemResponse('`payload_too_large`: the body is over 1 MiB.', {
        payload_too_large: { summary: 'A 2 MiB body', problem: new ProblemException(413, 'payload_too_large', 'the body exceeds the size limit') },
      }),
      429: problemResponse(
        '`too_many_failures`: too many failed sign-ins from this address.',
        { too_many_failures: { summary: 'Guessed passwords', problem: collectProblems.throttled(30) } },
        RETRY_AFTER_HEADER,
      ),
      503: problemResponse(
        '`jetstream_unavailable`: the bus did not store the uplink; `auth_unavailable`: the credential could not be checked. Send it again after `Retry-After`.',
        {
          jetstream_unavailable: { summary: 'NATS away', problem: collectProblems.jetstreamUnavailable() },
          auth_unavailable: { summary: 'The management API away', problem: collectProblems.authUnavailable() },
        },
        RETRY_AFTER_HEADER,
      ),
    },
  });
