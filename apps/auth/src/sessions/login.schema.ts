import { z } from 'zod';
import { storableString } from '../common/storable-text';

// Login checks only the shape: rules on email and password length apply when they are set, not here.
export const loginRequest = z
  .strictObject({
    email: storableString().min(1).max(254),
    password: z.string().min(1).max(1024),
  })
  .meta({ id: 'LoginRequest' });

/** The answer of POST /login. */
export const sessionSchema = z
  .object({
    access_token: z.string().meta({ description: 'Opaque session token: send it as `Authorization: Bearer <access_token>`.' }),
    token_type: z.literal('Bearer'),
    expires_in: z.int().min(1).meta({ description: 'Seconds the session lives (SESSION_TTL_SECONDS, default 3600).' }),
  })
  .meta({ id: 'Session' });

export type Session = z.output<typeof sessionSchema>;

/** The console's session as the page sees it: who signed in, and the CSRF token its changes carry. */
export const consoleSessionSchema = z
  .object({
    email: z.string(),
    org_id: z.string(),
    csrf_token: z.string().meta({ description: 'Send it as `X-CSRF-Token` on every request that changes something; keep it in memory only.' }),
  })
  .meta({ id: 'ConsoleSession' });

export type ConsoleSession = z.output<typeof consoleSessionSchema>;
