import { describe, expect, it } from 'vitest';
import { entryUses } from './vault-entry-users';

describe('entryUses', () => {
  it('groups the active integrations by the entry they open and leaves paused ones out', () => {
    expect(
      entryUses([
        { id: 'i1', namespace: 'batch', storage_type: 's3_identity', status: 'active' },
        { id: 'i2', namespace: 'batch', storage_type: 's3_identity', status: 'active' },
        { id: 'i3', namespace: 'batch', storage_type: 'azure_identity', status: 'active' },
        { id: 'i4', namespace: 'other', storage_type: 's3_identity', status: 'paused' },
      ]),
    ).toEqual([
      { namespace: 'batch', type: 's3_identity', integration_ids: ['i1', 'i2'] },
      { namespace: 'batch', type: 'azure_identity', integration_ids: ['i3'] },
    ]);
  });
});
