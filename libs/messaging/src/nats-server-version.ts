/**
 * The oldest NATS server the platform runs on: JetStream with the consumer
 * features it uses (pull consumers, `-NAK` with a delay, `+TERM`, msg-id
 * de-duplication). CI runs 2.9.10; compose and deploy ship 2.11.
 */
export const MIN_NATS_SERVER_VERSION = '2.9.0';

function parts(version: string): number[] | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  return match ? match.slice(1, 4).map(Number) : undefined;
}

/** Why a server cannot be used (too old, no JetStream), or undefined when it can. */
export function unsupportedNatsServer(info: { version?: string; jetstream?: boolean } | undefined): string | undefined {
  if (!info) return undefined;
  const have = info.version === undefined ? undefined : parts(info.version);
  const need = parts(MIN_NATS_SERVER_VERSION)!;
  if (have) {
    for (let i = 0; i < 3; i++) {
      if (have[i] > need[i]) break;
      if (have[i] < need[i]) return `NATS server ${info.version} is older than ${MIN_NATS_SERVER_VERSION}, the oldest this platform supports`;
    }
  }
  if (info.jetstream === false) return `NATS server ${info.version ?? '(unknown version)'} has JetStream disabled; start it with -js (or a jetstream {} block)`;
  return undefined;
}
