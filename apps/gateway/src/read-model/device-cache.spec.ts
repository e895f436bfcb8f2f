import { describe, expect, it } from 'vitest';
import type { DeviceRecord } from '@meter/read-model';
import { DeviceCache, type DeviceCacheLimits, type DevicePage } from './device-cache';
import { deviceRecord } from '@meter/testing/device-record';

const device = (deviceId: number, name?: string): DeviceRecord => deviceRecord(deviceId, name === undefined ? {} : { name });

/** A load that counts its calls and answers what `state` holds at that moment. */
function pages(state: { devices: DeviceRecord[] }) {
  const calls: number[] = [];
  const load = (after: number, limit: number) => async (): Promise<DevicePage> => {
    calls.push(after);
    const rest = state.devices.filter((d) => d.deviceId > after);
    return { devices: rest.slice(0, limit), hasMore: rest.length > limit };
  };
  return { calls, load };
}

function records(state: { devices: DeviceRecord[] }) {
  const asked: number[][] = [];
  const load = async (ids: readonly number[]) => {
    asked.push([...ids]);
    return new Map(state.devices.filter((d) => ids.includes(d.deviceId)).map((d) => [d.deviceId, d]));
  };
  return { asked, load };
}

/** An enabled cache, the devices its loads answer (change them to see whether the cache asks again), and a page loader. */
function enabledCache(devices: DeviceRecord[], limits: Partial<DeviceCacheLimits> = {}) {
  const cache = new DeviceCache(limits);
  cache.enable();
  const state = { devices };
  return { cache, state, ...pages(state) };
}

/** A page of 'o' whose load answers device 1 as 'old name' only once released: a query running while things change. */
function heldLoad(cache: DeviceCache) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const slow = cache.page('o', 0, 10, async () => {
    await gate;
    return { devices: [device(1, 'old name')], hasMore: false };
  });
  return { slow, release };
}

/** Device 1's name as the cache answers it now, were it to load ('new name'). */
const nameNow = async (cache: DeviceCache) =>
  (await cache.page('o', 0, 10, async () => ({ devices: [device(1, 'new name')], hasMore: false }))).devices[0].name;

describe('DeviceCache', () => {
  it('is off until enabled: every call loads', async () => {
    const cache = new DeviceCache();
    const state = { devices: [device(1)] };
    const { calls, load } = pages(state);
    await cache.page('o', 0, 10, load(0, 10));
    await cache.page('o', 0, 10, load(0, 10));
    expect(calls).toHaveLength(2);
  });

  it('answers a page from memory until its organization is invalidated', async () => {
    const { cache, state, calls, load } = enabledCache([device(1), device(2)]);
    expect((await cache.page('o', 0, 10, load(0, 10))).devices.map((d) => d.deviceId)).toEqual([1, 2]);
    state.devices.push(device(3));
    expect((await cache.page('o', 0, 10, load(0, 10))).devices.map((d) => d.deviceId)).toEqual([1, 2]);
    expect(calls).toHaveLength(1);
    cache.invalidate('other');
    await cache.page('o', 0, 10, load(0, 10));
    expect(calls).toHaveLength(1);
    cache.invalidate('o');
    expect((await cache.page('o', 0, 10, load(0, 10))).devices.map((d) => d.deviceId)).toEqual([1, 2, 3]);
    expect(calls).toHaveLength(2);
  });

  it('keys pages by cursor and size, and by organization', async () => {
    const { cache, state, calls, load } = enabledCache([device(1), device(2), device(3)]);
    expect(await cache.page('o', 0, 2, load(0, 2))).toEqual({ devices: [device(1), device(2)], hasMore: true });
    expect(await cache.page('o', 2, 2, load(2, 2))).toEqual({ devices: [device(3)], hasMore: false });
    expect(await cache.page('o', 0, 3, load(0, 3))).toEqual({ devices: state.devices.slice(0, 3), hasMore: false });
    const other = { devices: [device(9)] };
    expect((await cache.page('p', 0, 2, pages(other).load(0, 2))).devices).toEqual([device(9)]);
    expect(calls).toEqual([0, 2, 0]);
  });

  it('an empty organization id invalidates every organization', async () => {
    const { cache, calls, load } = enabledCache([device(1)]);
    await cache.page('o', 0, 10, load(0, 10));
    await cache.page('p', 0, 10, load(0, 10));
    cache.invalidate('');
    await cache.page('o', 0, 10, load(0, 10));
    await cache.page('p', 0, 10, load(0, 10));
    expect(calls).toHaveLength(4);
  });

  it('does not keep an answer loaded across an invalidation of its organization', async () => {
    const { cache } = enabledCache([]);
    const { slow, release } = heldLoad(cache);
    cache.invalidate('o'); // the change committed while the query ran
    release();
    expect((await slow).devices[0].name).toBe('old name'); // answered...
    expect(await nameNow(cache)).toBe('new name'); // ...but not kept
  });

  it('does not keep what was loaded while it was turned off and on again', async () => {
    const { cache } = enabledCache([]);
    const { slow, release } = heldLoad(cache);
    cache.disable();
    cache.enable();
    release();
    await slow;
    expect(await nameNow(cache)).toBe('new name');
  });

  it('disable drops everything and stops caching', async () => {
    const { cache, calls, load } = enabledCache([device(1)]);
    await cache.page('o', 0, 10, load(0, 10));
    cache.disable();
    expect(cache.active).toBe(false);
    await cache.page('o', 0, 10, load(0, 10));
    await cache.page('o', 0, 10, load(0, 10));
    expect(calls).toHaveLength(3);
  });

  it('loads only the device ids it has not seen, remembering absent ones', async () => {
    const cache = new DeviceCache();
    cache.enable();
    const state = { devices: [device(1), device(2)] };
    const { asked, load } = records(state);
    expect([...(await cache.devices('o', [1, 5], load)).keys()]).toEqual([1]);
    expect([...(await cache.devices('o', [1, 2, 5], load)).keys()].sort()).toEqual([1, 2]);
    expect([...(await cache.devices('o', [2, 1, 5], load)).keys()].sort()).toEqual([1, 2]);
    expect(asked).toEqual([[1, 5], [2]]);
    state.devices.push(device(5));
    cache.invalidate('o');
    expect([...(await cache.devices('o', [5], load)).keys()]).toEqual([5]);
    expect(asked).toEqual([[1, 5], [2], [5]]);
  });

  it('evicts the least recently used organization beyond its limit', async () => {
    const { cache, calls, load } = enabledCache([device(1)], { organizations: 2 });
    await cache.page('a', 0, 10, load(0, 10));
    await cache.page('b', 0, 10, load(0, 10));
    await cache.page('a', 0, 10, load(0, 10)); // a is now the most recent
    await cache.page('c', 0, 10, load(0, 10)); // evicts b
    expect(calls).toHaveLength(3);
    await cache.page('a', 0, 10, load(0, 10));
    expect(calls).toHaveLength(3);
    await cache.page('b', 0, 10, load(0, 10));
    expect(calls).toHaveLength(4);
  });

  it('drops an organization whose entries outgrow its record budget', async () => {
    const { cache, calls, load } = enabledCache(
      [1, 2, 3, 4].map((id) => device(id)),
      { recordsPerOrganization: 5 },
    );
    await cache.page('o', 0, 10, load(0, 10)); // weight 5: kept
    await cache.page('o', 0, 10, load(0, 10));
    expect(calls).toHaveLength(1);
    await cache.page('o', 1, 10, load(1, 10)); // weight 9: the organization's entries go
    await cache.page('o', 0, 10, load(0, 10));
    expect(calls).toHaveLength(3);
  });
});
