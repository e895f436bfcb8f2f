/** How many attempts each endpoint and organization has under way in this process. */
export interface Busy {
  endpoints: Map<string, number>;
  orgs: Map<string, number>;
}

/** The under-way counts of a set of claimed deliveries. */
export function busyOf(deliveries: Iterable<{ endpoint_id: string; org_id: string }>): Busy {
  const busy: Busy = { endpoints: new Map(), orgs: new Map() };
  for (const d of deliveries) {
    busy.endpoints.set(d.endpoint_id, (busy.endpoints.get(d.endpoint_id) ?? 0) + 1);
    busy.orgs.set(d.org_id, (busy.orgs.get(d.org_id) ?? 0) + 1);
  }
  return busy;
}

/** The claim query's parameters for what is under way: ids and counts as parallel arrays. */
export function busyParameters(busy: Busy): [string[], number[], string[], number[]] {
  return [[...busy.endpoints.keys()], [...busy.endpoints.values()], [...busy.orgs.keys()], [...busy.orgs.values()]];
}
