import type { DeviceRecord } from '@meter/read-model';

export interface DevicePage {
  devices: DeviceRecord[];
  hasMore: boolean;
}

export interface DeviceCacheLimits {
  /** Organizations kept; the least recently used goes first. */
  organizations: number;
  /** Device records (page rows + single lookups) kept per organization before its entries are dropped. */
  recordsPerOrganization: number;
}

const DEFAULT_LIMITS: DeviceCacheLimits = { organizations: 256, recordsPerOrganization: 2000 };

/** What one organization has cached. A new object replaces it on every invalidation. */
class OrgEntry {
  readonly pages = new Map<string, DevicePage>();
  /** null: asked for and not found (an id of no device of this organization). */
  readonly records = new Map<number, DeviceRecord | null>();
  weight = 0;
  /** When it was last used, on the cache's own counter: the least recently used goes first. */
  used = 0;
}

/**
 * Device pages and records of the read model, per organization, in memory.
 * Correct only while the owner hears every change: it is off until
 * `enable()` (LISTEN in place) and `disable()` drops everything.
 * A load that started before an invalidation of its organization is
 * answered but not stored, so a change that commits while a query runs
 * never leaves the older answer behind.
 */
export class DeviceCache {
  private orgs = new Map<string, OrgEntry>();
  private enabled = false;
  private uses = 0;
  private readonly limits: DeviceCacheLimits;

  constructor(limits: Partial<DeviceCacheLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  get active(): boolean {
    return this.enabled;
  }

  enable(): void {
    this.orgs = new Map();
    this.enabled = true;
  }

  disable(): void {
    this.enabled = false;
    this.orgs = new Map();
  }

  /** The organization's devices changed; an empty id means every organization's. */
  invalidate(orgId: string): void {
    if (orgId === '') this.orgs = new Map();
    else this.orgs.delete(orgId);
  }

  async page(orgId: string, afterId: number, limit: number, load: () => Promise<DevicePage>): Promise<DevicePage> {
    const entry = this.entry(orgId);
    if (!entry) return load();
    const key = `${afterId}:${limit}`;
    const cached = entry.pages.get(key);
    if (cached) return cached;
    const page = await load();
    if (this.current(orgId, entry)) {
      entry.pages.set(key, page);
      this.weigh(orgId, entry, page.devices.length + 1);
    }
    return page;
  }

  /** The organization's devices among `deviceIds`; only ids not cached yet are loaded. */
  async devices(
    orgId: string,
    deviceIds: readonly number[],
    load: (missing: readonly number[]) => Promise<Map<number, DeviceRecord>>,
  ): Promise<Map<number, DeviceRecord>> {
    const entry = this.entry(orgId);
    if (!entry) return load(deviceIds);
    const found = new Map<number, DeviceRecord>();
    const missing: number[] = [];
    for (const id of deviceIds) {
      const cached = entry.records.get(id);
      if (cached === undefined) missing.push(id);
      else if (cached !== null) found.set(id, cached);
    }
    if (missing.length === 0) return found;
    const loaded = await load(missing);
    const store = this.current(orgId, entry);
    for (const id of missing) {
      const record = loaded.get(id);
      if (record) found.set(id, record);
      if (store) entry.records.set(id, record ?? null);
    }
    if (store) this.weigh(orgId, entry, missing.length);
    return found;
  }

  /**
   * The organization's entry, now the most recently used; undefined while off. A hit only stamps the
   * entry: moving it to the end of the Map (delete, then set) on every request made V8 rebuild the
   * Map's table every few requests, and a table that lives in the old generation is rebuilt there,
   * so each request left garbage only a full collection frees (a mark-compact every few seconds under
   * load, and its pauses in the latency tail). The scan for the oldest runs only when a new
   * organization comes in over the limit.
   */
  private entry(orgId: string): OrgEntry | undefined {
    if (!this.enabled) return undefined;
    let entry = this.orgs.get(orgId);
    if (!entry) {
      if (this.orgs.size >= this.limits.organizations) this.evictLeastRecentlyUsed();
      this.orgs.set(orgId, (entry = new OrgEntry()));
    }
    entry.used = ++this.uses;
    return entry;
  }

  private evictLeastRecentlyUsed(): void {
    let oldest: string | undefined;
    let oldestUse = Infinity;
    for (const [orgId, entry] of this.orgs) {
      if (entry.used < oldestUse) {
        oldest = orgId;
        oldestUse = entry.used;
      }
    }
    if (oldest !== undefined) this.orgs.delete(oldest);
  }

  /** Still the organization's entry: nothing invalidated or evicted it while loading. */
  private current(orgId: string, entry: OrgEntry): boolean {
    return this.enabled && this.orgs.get(orgId) === entry;
  }

  private weigh(orgId: string, entry: OrgEntry, added: number): void {
    entry.weight += added;
    if (entry.weight > this.limits.recordsPerOrganization) this.orgs.delete(orgId);
  }
}
