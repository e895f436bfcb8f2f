import {
  isConnectionString,
  isPlainServiceUrl,
  isServiceUrl,
  VAULT_ENTRY_FIELDS,
  VAULT_ENTRY_TYPES,
  VAULT_NAMESPACE_PATTERN,
  type VaultEntryType,
} from '@meter/contracts';

export interface FieldError {
  field: string;
  message: string;
}

/** A validated vault entry: every field of its type present, nothing else. */
export interface EntryInput {
  namespace: string;
  type: VaultEntryType;
  data: Record<string, string>;
}

export type EntryValidation = { ok: true; entry: EntryInput } | { ok: false; errors: FieldError[] };

const TOP_LEVEL = new Set(['namespace', 'type', 'data']);

/** docs/vault.md, Validation: every violation, each naming its field (`data.secret_key`). */
export function validateEntryInput(body: unknown): EntryValidation {
  if (!isPlainObject(body)) return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] };
  const errors: FieldError[] = [];
  for (const key of Object.keys(body)) {
    if (!TOP_LEVEL.has(key)) errors.push({ field: key, message: 'is not a known field' });
  }

  const namespace = body.namespace;
  if (namespace === undefined) errors.push({ field: 'namespace', message: 'is required' });
  else if (typeof namespace !== 'string') errors.push({ field: 'namespace', message: 'must be a string' });
  else if (!VAULT_NAMESPACE_PATTERN.test(namespace)) {
    errors.push({
      field: 'namespace',
      message: 'must be 1 to 100 characters of letters, digits, "_", "-" or ".", starting with a letter or digit',
    });
  }

  const type = body.type;
  const knownType = typeof type === 'string' && (VAULT_ENTRY_TYPES as string[]).includes(type);
  if (type === undefined) errors.push({ field: 'type', message: 'is required' });
  else if (!knownType) errors.push({ field: 'type', message: `must be one of ${VAULT_ENTRY_TYPES.join(', ')}` });

  const data = body.data;
  if (data === undefined) errors.push({ field: 'data', message: 'is required' });
  else if (!isPlainObject(data)) errors.push({ field: 'data', message: 'must be a JSON object' });
  else if (knownType) errors.push(...validateData(type as VaultEntryType, data));

  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, entry: { namespace: namespace as string, type: type as VaultEntryType, data: data as Record<string, string> } };
}

function validateData(type: VaultEntryType, data: Record<string, unknown>): FieldError[] {
  const limits: Record<string, number> = VAULT_ENTRY_FIELDS[type];
  const errors: FieldError[] = [];
  for (const key of Object.keys(data)) {
    if (!Object.hasOwn(limits, key)) errors.push({ field: `data.${key}`, message: `is not a field of ${type}` });
  }
  for (const [name, max] of Object.entries(limits)) {
    const field = `data.${name}`;
    const value = data[name];
    if (value === undefined || value === null) {
      errors.push({ field, message: 'is required' });
      continue;
    }
    if (typeof value !== 'string') {
      errors.push({ field, message: 'must be a string' });
      continue;
    }
    if (value.trim() === '') {
      errors.push({ field, message: 'must not be empty' });
      continue;
    }
    const length = characterCount(value);
    if (length > max) {
      errors.push({ field, message: `must be at most ${max} characters (got ${length})` });
      continue;
    }
    const formatError = formatRule(name, value);
    if (formatError) errors.push({ field, message: formatError });
  }
  return errors;
}

function formatRule(name: string, value: string): string | undefined {
  switch (name) {
    case 'end_point':
      if (!isServiceUrl(value)) return 'must be an http:// or https:// URL with a host';
      // The list shows the endpoint in clear: the keys go in access_key and secret_key.
      return isPlainServiceUrl(value) ? undefined : 'must carry no user name, password or query string (put the keys in access_key and secret_key)';
    case 'connection_string':
      return isConnectionString(value) ? undefined : 'must be an https:// URL or a Key=Value; connection string naming AccountName or an *Endpoint URL';
    case 'credentials_json':
      return isJsonObjectText(value) ? undefined : 'must hold a JSON object document';
    default:
      return undefined;
  }
}

/** Lengths are counted in Unicode code points, so an emoji is one character, as a person counts it. */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

function isJsonObjectText(value: string): boolean {
  try {
    return isPlainObject(JSON.parse(value));
  } catch {
    return false;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
