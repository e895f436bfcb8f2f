import { collectorLookupReply, collectorLookupRequest, collectorLookupSubject } from '@meter/contracts';
import { LookupResponder } from '../common/lookup-responder';
import { activeCollectorCredential } from './collector-credential-store';

/**
 * Answers collectors' `auth.collectors.lookup` with an active credential's
 * organization, format, mapping and password hash (docs/collectors.md, "How
 * collectors are authenticated"); collectors verify the password themselves.
 */
export class CollectorLookupResponder extends LookupResponder({
  name: 'collector-lookup',
  subject: collectorLookupSubject,
  request: collectorLookupRequest,
  find: async (db, request) => {
    const row = await activeCollectorCredential(db, request.username);
    if (!row) return { status: 'unknown' };
    const { id, org_id, username, format, mapping, password_hash } = row;
    return collectorLookupReply.parse({ status: 'found', credential: { id, org_id, username, format, mapping, password_hash } });
  },
}) {}
