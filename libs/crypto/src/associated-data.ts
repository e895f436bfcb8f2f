/**
 * Canonical bytes binding a ciphertext to its context (organization,
 * row id, ...): JSON with keys sorted, so no two different records give
 * the same bytes ({org:'a', id:'bc'} and {org:'ab', id:'c'} differ).
 * Types count: 1 and '1' differ, so pass each field with a fixed type.
 */
export function associatedData(parts: Readonly<Record<string, string | number>>): Uint8Array {
  const fields = Object.keys(parts)
    .sort()
    .map((name) => `${JSON.stringify(name)}:${canonicalValue(name, parts[name])}`);
  return new TextEncoder().encode(`{${fields.join(',')}}`);
}

function canonicalValue(name: string, value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  // NaN and Infinity would all serialise as null and collide.
  if (typeof value === 'number' && Number.isFinite(value)) return JSON.stringify(value);
  throw new TypeError(`associated data field ${name} must be a string or a finite number`);
}
