import { credentialLookupReply, credentialLookupRequest, credentialLookupSubject } from '@meter/contracts';
import { LookupResponder } from '../common/lookup-responder';
import { envelopeOf, latestCredentialEvents } from '../events/event-store';

/**
 * Answers the gateways' `auth.credentials.lookup` requests with the
 * credential's events (docs/gateway-security.md, "A credential the gateway
 * has not seen yet"). Auth commits a credential before it answers 201, so a
 * gateway that asks after the 201 always finds it.
 */
export class CredentialLookupResponder extends LookupResponder({
  name: 'credential-lookup',
  subject: credentialLookupSubject,
  request: credentialLookupRequest,
  find: async (db, request) => {
    const rows = await latestCredentialEvents(db, request.access_key);
    if (rows.length === 0) return { status: 'unknown' };
    // Validated as the gateway will: what auth appended passed the same schemas.
    return credentialLookupReply.parse({ status: 'found', events: rows.map(envelopeOf) });
  },
}) {}
