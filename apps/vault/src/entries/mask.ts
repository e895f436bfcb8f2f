import { isPlainServiceUrl, VAULT_NON_SECRET_FIELDS } from '@meter/contracts';

const HIDDEN = '****';

/**
 * A hint that helps an admin recognise a value without revealing it
 * (docs/vault.md): a fixed `****` (so the length is not shown) followed by at
 * most the last 4 characters, and never more than a quarter of the value,
 * so values shorter than 4 characters show nothing of themselves.
 */
export function maskValue(value: string): string {
  const characters = [...value];
  const shown = Math.min(4, Math.floor(characters.length / 4));
  return HIDDEN + characters.slice(characters.length - shown).join('');
}

/**
 * Whether a field is listed as stored: a non-secret field (where the data goes, the tenant and client
 * it goes as), but an `end_point` only while it carries no user, password or query, which could hold a
 * credential (entries stored before such endpoints were refused).
 */
function listedInClear(name: string, value: string): boolean {
  return VAULT_NON_SECRET_FIELDS.has(name) && (name !== 'end_point' || isPlainServiceUrl(value));
}

/**
 * Every field for the organization's list: non-secret ones in clear, secrets masked. A value that is
 * not text (only an entry stored before inherited names such as `valueOf` were refused could hold one)
 * shows as `****` rather than failing the organization's list.
 */
export function listedFields(data: Readonly<Record<string, unknown>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(data).map(([name, value]) => [name, typeof value !== 'string' ? HIDDEN : listedInClear(name, value) ? value : maskValue(value)]),
  );
}
