export { sodiumReady, cryptoReady } from './sodium';
export {
  KEY_BYTES,
  KEY_ID_PATTERN,
  type RingKey,
  type KeyRing,
  ringKey,
  generateKey,
  parseKeyRing,
  formatKeyRing,
  rotateKeyRing,
  removeKey,
  activeKey,
  findKey,
  devKeyId,
  assertKeyRing,
} from './key-ring';
export {
  loadKeyRing,
  keyRingSource,
  saveDevKeyRing,
  devKeyRingPath,
  type LoadKeyRingOptions,
  type DevKeyRingLocation,
  type KeyRingLogger,
  type KeyRingName,
  type KeyRingSettings,
} from './load-key-ring';
export { associatedData } from './associated-data';
export { seal, open, openText, sealedKeyId, needsReseal, reseal, SealedDataError, type SealedDataProblem } from './seal';
export { generateDataKey, wrapDataKey, unwrapDataKey, dataKeyRing } from './data-key';
export {
  hashPassword,
  verifyPassword,
  passwordNeedsRehash,
  dummyPasswordHash,
  DEFAULT_PASSWORD_PARAMS,
  INSECURE_TEST_PASSWORD_PARAMS,
  type PasswordHashParams,
} from './password';
export { randomToken, sha256Hex, constantTimeEqual } from './token';
