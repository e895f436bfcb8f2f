const decoder = new TextDecoder('utf-8', { fatal: true });

/** A body as a JSON object, or the reason it is not one. */
export function jsonObject(body: Uint8Array): { ok: true; value: Record<string, unknown> } | { ok: false; reason: string } {
  const parsed = json(body);
  if (!parsed.ok) return parsed;
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return { ok: false, reason: 'body must be a JSON object' };
  return { ok: true, value: parsed.value as Record<string, unknown> };
}

export function json(body: Uint8Array): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(decoder.decode(body)) };
  } catch {
    return { ok: false, reason: 'body is not valid UTF-8 JSON' };
  }
}

/** The member at an RFC 6901 pointer, or undefined. */
export function atPointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let current: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(token)) current = current[Number(token)];
    else if (typeof current === 'object' && current !== null && !Array.isArray(current) && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else return undefined;
  }
  return current;
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
