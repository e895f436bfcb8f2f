import { describe, expect, it } from 'vitest';
import { VAULT_ENTRY_FIELDS, VAULT_NON_SECRET_FIELDS } from '@meter/contracts';
import { FIELD_LABELS, NON_SECRET_FIELDS, VAULT_TYPES } from './vault-types';

describe("the console's vault types", () => {
  it('are the vault service’s, field for field', () => {
    expect(Object.fromEntries(Object.entries(VAULT_ENTRY_FIELDS).map(([type, fields]) => [type, Object.keys(fields)]))).toEqual(VAULT_TYPES);
    expect([...VAULT_NON_SECRET_FIELDS].sort()).toEqual([...NON_SECRET_FIELDS].sort());
    for (const fields of Object.values(VAULT_TYPES)) for (const field of fields) expect(FIELD_LABELS[field]).toBeTruthy();
  });
});
