import { z } from 'zod';
import { isConnectionString, isPlainServiceUrl, isServiceUrl } from './service-urls';
import { VAULT_ENTRY_FIELDS, VAULT_ENTRY_TYPES, VAULT_NAMESPACE_PATTERN, type VaultEntryType } from './vault';

/**
 * The body of PATCH /organization-vault (docs/vault.md, Validation): the
 * vault validates the entry with it (every violation, each naming its field,
 * `data.secret_key`), and the management API's document describes it.
 */

const NAMESPACE_MESSAGE = 'must be 1 to 100 characters of letters, digits, "_", "-" or ".", starting with a letter or digit';
const TYPE_MESSAGE = `must be one of ${VAULT_ENTRY_TYPES.join(', ')}`;

/** What the document says of some fields, beyond their length. */
const FIELD_NOTES: Record<string, Record<string, unknown>> = {
  end_point: {
    format: 'uri',
    description: 'URL of the object storage service (http:// or https:// with a host; no user name, password or query string: it is listed in clear).',
  },
  tenant_id: { description: 'Directory identifier.' },
  client_id: { description: 'Application identifier.' },
  connection_string: {
    description: 'An https:// URL, or a `Key=Value;` account or shared-access connection string naming AccountName or an *Endpoint URL.',
  },
  credentials_json: {
    contentMediaType: 'application/json',
    description: 'The service-account JSON document as a string (quotes escaped); it must hold a JSON object.',
  },
};

/** Lengths are counted in Unicode code points, so an emoji is one character, as a person counts it. */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/** Why a data field's string is refused, the first rule it breaks; undefined when it is fine. */
function entryFieldProblem(name: string, max: number, value: string): string | undefined {
  if (value.trim() === '') return 'must not be empty';
  const length = characterCount(value);
  if (length > max) return `must be at most ${max} characters (got ${length})`;
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

function isJsonObjectText(value: string): boolean {
  try {
    return isRecord(JSON.parse(value));
  } catch {
    return false;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object schema's messages: a value that is not an object, and a field it does not know. */
const objectErrors = (unknownField: string) => ({
  error: (issue: { code: string }) => (issue.code === 'unrecognized_keys' ? unknownField : 'must be a JSON object'),
});

const namespace = z
  .string({ error: 'must be a string' })
  .regex(VAULT_NAMESPACE_PATTERN, { error: NAMESPACE_MESSAGE })
  .meta({ maxLength: 100, description: 'Groups entries; the name an integration is activated with.' });

/** A data field: a string (null counts as missing), not blank, within its length (in characters), of its format. */
function dataField(name: string, max: number) {
  const { description = '', ...notes } = (FIELD_NOTES[name] ?? {}) as { description?: string };
  return z
    .string({ error: (issue) => (issue.input === null ? 'is required' : 'must be a string') })
    .check((ctx) => {
      const problem = entryFieldProblem(name, max, ctx.value);
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
    })
    .meta({ minLength: 1, maxLength: max, ...notes, description: `${description} At most ${max} characters, not blank.`.trim() });
}

/** One alternative of the body: `data` holds exactly the fields of `type`, each within its limit (VAULT_ENTRY_FIELDS). */
function entryOfType<T extends VaultEntryType>(type: T) {
  const limits: Record<string, number> = VAULT_ENTRY_FIELDS[type];
  const fields = Object.fromEntries(Object.entries(limits).map(([name, max]) => [name, dataField(name, max)]));
  return z
    .strictObject(
      { namespace, type: z.literal(type), data: z.strictObject(fields, objectErrors(`is not a field of ${type}`)) },
      objectErrors('is not a known field'),
    )
    .meta({ description: `An entry of type \`${type}\`.` });
}

/** A body whose type is missing or unknown: its data cannot be checked, the rest is. */
const entryOfNoType = z.strictObject(
  {
    namespace,
    type: z.enum(VAULT_ENTRY_TYPES as [VaultEntryType, ...VaultEntryType[]], { error: TYPE_MESSAGE }),
    data: z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }),
  },
  objectErrors('is not a known field'),
);

const KNOWN_TYPES: ReadonlySet<unknown> = new Set(VAULT_ENTRY_TYPES);

const entryOfEachType = z
  .discriminatedUnion('type', VAULT_ENTRY_TYPES.map(entryOfType) as unknown as [ReturnType<typeof entryOfType>, ...ReturnType<typeof entryOfType>[]], {
    error: 'must be a JSON object',
  })
  .meta({ id: 'VaultEntryUpsert', description: 'The entry of (namespace, type); `data` holds exactly the fields of its type.' });

/**
 * The entry body. A discriminated union stops at a type it does not know, so
 * such a body is checked, first, without its data: the answer still names
 * every other problem (a bad namespace, an unknown field, data not an object).
 */
export const vaultEntryBody = z.preprocess((body, ctx) => {
  if (isRecord(body) && !KNOWN_TYPES.has(body.type)) {
    const untyped = entryOfNoType.safeParse(body, { reportInput: true });
    if (!untyped.success) ctx.issues.push(...(untyped.error.issues as typeof ctx.issues));
  }
  return body;
}, entryOfEachType);
export type VaultEntryBody = z.output<typeof vaultEntryBody>;

/** How readInput (@meter/http) reads the body: unknown fields first, a data field named with its type. */
export const VAULT_ENTRY_INPUT = { unknownFieldsFirst: true, unknownFieldsNamedBySchema: true } as const;
