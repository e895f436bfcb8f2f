import { addressBlock } from '@meter/config';

// Redis Cluster hash tags ({...}): each budget's key lives whole in one slot, as the script needs.

/** The budget of a credential's validly signed requests. */
export const credentialLimitKey = (credentialId: string) => `rl:{cred:${credentialId}}`;

/** The budget of failed authentications from one source address (an IPv6 address's whole /64: `addressBlock`). */
export const sourceLimitKey = (address: string | undefined) => `rl:{ip:${address === undefined ? 'unknown' : addressBlock(address)}}`;
