import { beforeAll, describe, expect, it } from 'vitest';
import { associatedData } from './associated-data';
import { dataKeyRing, generateDataKey, unwrapDataKey, wrapDataKey } from './data-key';
import { generateKey, removeKey, rotateKeyRing } from './key-ring';
import { open, openText, seal, SealedDataError } from './seal';
import { sodiumReady } from './sodium';

beforeAll(() => sodiumReady());

const orgAd = (org: string) => associatedData({ org });
const entryAd = (org: string, id: string) => associatedData({ org, entry: id, namespace: 'billing', type: 'smtp', version: 1 });

describe('envelope encryption', () => {
  it('wraps and unwraps a data key bound to its organization', () => {
    const root = [generateKey('r1')];
    const dataKey = generateDataKey();
    expect(dataKey).toHaveLength(32);
    const wrapped = wrapDataKey(root, dataKey, orgAd('o1'));
    expect(unwrapDataKey(root, wrapped, orgAd('o1'))).toEqual(dataKey);
    expect(() => unwrapDataKey(root, wrapped, orgAd('o2'))).toThrow(SealedDataError);
  });

  it('keeps wrapped keys and sealed data apart', () => {
    const root = [generateKey('r1')];
    const wrapped = wrapDataKey(root, generateDataKey(), orgAd('o1'));
    expect(() => open(root, wrapped, orgAd('o1'))).toThrow(SealedDataError);
    const sealed = seal(root, generateDataKey(), orgAd('o1'));
    expect(() => unwrapDataKey(root, sealed, orgAd('o1'))).toThrow(SealedDataError);
  });

  it('refuses a data key of the wrong size', () => {
    expect(() => wrapDataKey([generateKey('r1')], new Uint8Array(16), orgAd('o1'))).toThrow(/32 bytes/);
  });

  it('rotating the root ring re-wraps data keys; entries are untouched', () => {
    const root = [generateKey('r1')];
    const dataKey = generateDataKey();
    const wrapped = wrapDataKey(root, dataKey, orgAd('o1'));
    const entry = seal(dataKeyRing('dk1', dataKey), '{"password":"hunter2"}', entryAd('o1', 'e1'));

    const rotated = rotateKeyRing(root);
    const rewrapped = wrapDataKey(rotated, unwrapDataKey(rotated, wrapped, orgAd('o1')), orgAd('o1'));
    const afterRetire = removeKey(rotated, 'r1');

    const unwrapped = unwrapDataKey(afterRetire, rewrapped, orgAd('o1'));
    expect(openText(dataKeyRing('dk1', unwrapped), entry, entryAd('o1', 'e1'))).toBe('{"password":"hunter2"}');
    expect(() => openText(dataKeyRing('dk1', unwrapped), entry, entryAd('o1', 'e2'))).toThrow(SealedDataError);
  });
});
