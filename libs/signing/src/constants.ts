/** Authorization scheme name of the gateway API. */
export const SCHEME = 'SVC-HMAC';

/** Access key prefix of secret credentials: requests are HMAC-signed. */
export const SECRET_ACCESS_KEY_PREFIX = 'sk_live_';

/** Access key prefix of public credentials: the signature is the literal `public`. */
export const PUBLIC_ACCESS_KEY_PREFIX = 'pk_live_';

/** The signature value a public (`pk_live_`) credential sends instead of an HMAC. */
export const PUBLIC_SIGNATURE = 'public';

/** Allowed distance between the request timestamp and server time, either direction. */
export const DEFAULT_MAX_SKEW_SECONDS = 300;

/** Largest timestamp the header grammar admits (at most 12 decimal digits). */
export const MAX_TIMESTAMP = 999_999_999_999;

/** Lowercase hex SHA-256 of the empty string: the body hash of a request without body. */
export const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
