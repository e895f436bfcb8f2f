/**
 * The part of Kubernetes' strategic merge patch that our overlays use: maps
 * merge recursively, `null` deletes a key, and the lists Kubernetes merges by a
 * key (containers by name, ports by containerPort, ...) merge element-wise;
 * every other list is replaced, as in a JSON merge patch (which is also what
 * kustomize does for kinds without a schema, like CRDs).
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Field name -> merge key, from the Kubernetes API's `x-kubernetes-patch-merge-key`. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  hostAliases: 'ip',
  tolerations: 'key',
  topologySpreadConstraints: 'topologyKey',
  conditions: 'type',
};

/** `ports` merges by containerPort inside a container, by port inside a Service. */
function mergeKeyFor(field: string, items: Json[]): string | undefined {
  if (field === 'ports') {
    const first = items.find(isObject);
    if (first && 'containerPort' in first) return 'containerPort';
    if (first && 'port' in first) return 'port';
    return undefined;
  }
  return MERGE_KEYS[field];
}

export function isObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function strategicMerge(target: Json, patch: Json, options: { lists: 'strategic' | 'replace' } = { lists: 'strategic' }): Json {
  if (!isObject(target) || !isObject(patch)) return clone(patch);
  const result: { [key: string]: Json } = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete result[key];
    } else if (Array.isArray(value) && Array.isArray(result[key]) && options.lists === 'strategic') {
      result[key] = mergeList(key, result[key] as Json[], value, options);
    } else if (isObject(value) && isObject(result[key])) {
      result[key] = strategicMerge(result[key], value, options);
    } else {
      result[key] = clone(value);
    }
  }
  return result;
}

function mergeList(field: string, target: Json[], patch: Json[], options: { lists: 'strategic' | 'replace' }): Json[] {
  const key = mergeKeyFor(field, [...patch, ...target]);
  if (!key) return clone(patch) as Json[];
  const result = target.map(clone);
  for (const item of patch) {
    if (!isObject(item) || !(key in item)) throw new Error(`strategic merge: an element of ${field} lacks its merge key ${key}`);
    const index = result.findIndex((existing) => isObject(existing) && existing[key] === item[key]);
    if (item.$patch === 'delete') {
      if (index >= 0) result.splice(index, 1);
    } else if (index >= 0) {
      result[index] = strategicMerge(result[index], item, options);
    } else {
      result.push(clone(item));
    }
  }
  return result;
}

function clone<T extends Json>(value: T): T {
  return structuredClone(value);
}
