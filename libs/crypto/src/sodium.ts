import sodium from 'libsodium-wrappers-sumo';

// The default import is the live module object: libsodium attaches its
// functions to it only once `ready` resolves, so a namespace import
// (which copies properties at import time) would miss them under CommonJS.
let ready = false;
let readying: Promise<void> | undefined;

/**
 * Initialises libsodium once; safe to call any number of times.
 * Await it once at start-up, then the synchronous functions of this
 * library (seal, open, wrapDataKey...) can be used on hot paths.
 */
export function sodiumReady(): Promise<void> {
  readying ??= sodium.ready.then(() => {
    ready = true;
  });
  return readying;
}

/** Alias of {@link sodiumReady}, for call sites that think of "the crypto library". */
export const cryptoReady = sodiumReady;

/** The initialised libsodium module; throws if {@link sodiumReady} has not completed. */
export function sodiumLib(): typeof sodium {
  if (!ready) {
    throw new Error('libsodium is not initialised: await sodiumReady() once before using @meter/crypto');
  }
  return sodium;
}
