import secureJson from 'secure-json-parse';

type BodyOutcome = { ok: true; body: unknown } | { ok: false; status: 400 | 415; message: string };

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

/** `type/subtype` with optional parameters: what Fastify accepts as a Content-Type before any hook runs. */
const MEDIA_TYPE = /^\s*[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*(?:;.*)?$/;

export function isWellFormedMediaType(contentType: string): boolean {
  return MEDIA_TYPE.test(contentType);
}

/**
 * The body for the controllers, parsed only after the raw bytes were
 * verified. JSON is parsed the way Fastify would (prototype poisoning
 * refused); an empty body is no body; any other media type with content
 * is refused, since every gateway route takes JSON or nothing.
 */
export function parseVerifiedBody(raw: Buffer | undefined, contentType: string | undefined): BodyOutcome {
  if (!raw || raw.length === 0) return { ok: true, body: undefined };
  if (!isJson(contentType)) return { ok: false, status: 415, message: 'unsupported content type; send application/json' };
  try {
    return { ok: true, body: secureJson.parse(raw.toString('utf8'), undefined, { protoAction: 'error', constructorAction: 'error' }) };
  } catch {
    return { ok: false, status: 400, message: 'is not valid JSON' };
  }
}
