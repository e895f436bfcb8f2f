/**
 * Takes the next batch of at most `max` messages out of `queue`, whole
 * devices at a time: a device's first queued message brings all its queued
 * messages along, in queue order, so two batches written at the same time
 * rarely share a device and never wait for each other's device lock. A
 * device with more than `max` queued messages fills a batch by itself; one
 * that does not fit waits for the next batch while smaller ones fill this one.
 * The messages left keep their order. A device in `busy` (a batch of it is
 * still being written) is left queued, so a device's messages are written
 * in the order they arrived: a settings change before the readings it
 * governs, an alarm's raise before its clear.
 */
export function takeBatch<T>(queue: T[], max: number, deviceOf: (item: T) => string, busy: ReadonlySet<string> = new Set()): T[] {
  if (queue.length <= max && busy.size === 0) return queue.splice(0, queue.length);
  const byDevice = new Map<string, T[]>();
  for (const item of queue) {
    const device = deviceOf(item);
    if (busy.has(device)) continue;
    const list = byDevice.get(device);
    if (list) list.push(item);
    else byDevice.set(device, [item]);
  }
  const taken = new Set<T>();
  for (const list of byDevice.values()) {
    if (taken.size + list.length <= max) for (const item of list) taken.add(item);
    else if (taken.size === 0) for (const item of list.slice(0, max)) taken.add(item);
    if (taken.size === max) break;
  }
  const batch: T[] = [];
  let kept = 0;
  for (const item of queue) {
    if (taken.has(item)) batch.push(item);
    else queue[kept++] = item;
  }
  queue.length = kept;
  return batch;
}

/** The device a bus subject `...<org>.<device>` is about: its last two tokens. */
export function deviceOfSubject(subject: string): string {
  return subject.slice(subject.lastIndexOf('.', subject.lastIndexOf('.') - 1) + 1);
}
