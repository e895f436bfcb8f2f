import { describe, expect, it } from 'vitest';
import { radioIdsApplied, radioIdsSet, takenRadioIds, withRadioIds } from './radio-ids';

describe('radio ids of a device edit', () => {
  it('checks only the ids a request sets to a value', () => {
    expect(radioIdsSet({ dev_eui: '0004a30b001c0530', wmbus_id: null })).toEqual([{ kind: 'dev_eui', id: '0004a30b001c0530' }]);
    expect(radioIdsSet({ wmbus_id: '76348799' })).toEqual([{ kind: 'wmbus_id', id: '76348799' }]);
    expect(radioIdsSet({})).toEqual([]);
  });

  it('names each id another device holds, not one the device itself or nobody holds', () => {
    expect(
      takenRadioIds(7, [
        { kind: 'dev_eui', id: '0004a30b001c0530', holder: 3 },
        { kind: 'wmbus_id', id: '76348799', holder: 7 },
      ]),
    ).toEqual([{ field: 'external_ids.dev_eui', message: '0004a30b001c0530 is the radio id of device 3' }]);
    expect(takenRadioIds(7, [{ kind: 'wmbus_id', id: '76348799', holder: null }])).toEqual([]);
  });

  it('keeps an absent member, removes a null one, sets a value', () => {
    const stored = { dev_eui: '0004a30b001c0530', wmbus_id: '76348799' };
    expect(withRadioIds(stored, { wmbus_id: null })).toEqual({ dev_eui: '0004a30b001c0530', wmbus_id: null });
    expect(withRadioIds(stored, { dev_eui: '0101010101010101' })).toEqual({ dev_eui: '0101010101010101', wmbus_id: '76348799' });
    expect(radioIdsApplied(stored, {})).toBe(true);
    expect(radioIdsApplied(stored, { wmbus_id: '76348799' })).toBe(true);
    expect(radioIdsApplied(stored, { wmbus_id: null })).toBe(false);
  });
});
