import { DiscardPolicy, JetStreamApiCodes, JetStreamApiError, type JetStreamManager, type StreamInfo } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import type { StreamSpec } from '@meter/contracts';

export interface EnsureStreamOptions {
  /** Replicas to create the stream with, or to bring it to; left as it is when absent (tools, tests). */
  replicas?: number;
  /** Byte limit and discard policy to create the stream with, or to bring it to; left as they are when absent. */
  limits?: StreamLimits;
}

export interface StreamLimits {
  /** Per replica; 0 for none. */
  maxBytes: number;
  /** What a full stream does: refuse new messages, or drop its oldest. */
  discard: 'new' | 'old';
}

/** Creates the stream, or brings its subjects, limits and (if given) replica count up to date. Safe to call from every replica. */
export async function ensureStream(jsm: JetStreamManager, spec: StreamSpec, options: EnsureStreamOptions = {}): Promise<StreamInfo> {
  const wanted = {
    subjects: spec.subjects,
    max_age: nanos(spec.maxAgeSeconds * 1000),
    duplicate_window: nanos(spec.duplicateWindowSeconds * 1000),
    ...(options.replicas === undefined ? {} : { num_replicas: options.replicas }),
    ...(options.limits === undefined
      ? {}
      : {
          max_bytes: options.limits.maxBytes > 0 ? options.limits.maxBytes : -1,
          discard: options.limits.discard === 'new' ? DiscardPolicy.New : DiscardPolicy.Old,
        }),
  };
  try {
    const info = await jsm.streams.info(spec.name);
    const same =
      sameSet(info.config.subjects ?? [], spec.subjects) &&
      info.config.max_age === wanted.max_age &&
      info.config.duplicate_window === wanted.duplicate_window &&
      (options.replicas === undefined || info.config.num_replicas === options.replicas) &&
      (wanted.max_bytes === undefined || (info.config.max_bytes === wanted.max_bytes && info.config.discard === wanted.discard));
    return same ? info : await jsm.streams.update(spec.name, wanted);
  } catch (error) {
    if (!isNotFound(error, JetStreamApiCodes.StreamNotFound)) throw error;
    try {
      return await jsm.streams.add({ name: spec.name, ...wanted });
    } catch (addError) {
      // Another replica created it between our info and add.
      if (addError instanceof JetStreamApiError && /already in use/i.test(addError.message)) return jsm.streams.info(spec.name);
      throw new Error(`cannot create stream ${spec.name}: ${addError instanceof Error ? addError.message : String(addError)}`, { cause: addError });
    }
  }
}

export function isNotFound(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}
