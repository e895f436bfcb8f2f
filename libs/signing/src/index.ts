// SVC-HMAC request signing (README.md beside this folder): pure functions over
// node:crypto, shared by the gateway (verification) and integrators (signing).

export {
  DEFAULT_MAX_SKEW_SECONDS,
  EMPTY_BODY_SHA256,
  MAX_TIMESTAMP,
  PUBLIC_ACCESS_KEY_PREFIX,
  PUBLIC_SIGNATURE,
  SCHEME,
  SECRET_ACCESS_KEY_PREFIX,
} from './constants';
export { splitTarget, type RequestTarget } from './target';
export { bodySha256Hex, type BodyInput } from './body-hash';
export { signingString, signingStringSha256, type SigningStringInput } from './signing-string';
export { sign, type SignInput, type SignResult } from './sign';
export { verifySignature, type VerifyInput } from './verify';
export { timestampWithinSkew } from './skew';
export { accessKeyKind, isPublicAccessKey, isSecretAccessKey, signatureKindAllowed, type AccessKeyKind } from './access-key';
export { authorizationHeader, type AuthorizationHeaderInput } from './authorization-header';
export {
  parseAuthorization,
  type AuthorizationErrorCode,
  type AuthorizationParseError,
  type AuthorizationParseResult,
  type ParsedAuthorization,
} from './parse-authorization';
export { signRequest, type SignRequestInput, type SignedHeaders } from './sign-request';
export { signWebhook, verifyWebhook, type WebhookHeaders } from './webhook-signature';
