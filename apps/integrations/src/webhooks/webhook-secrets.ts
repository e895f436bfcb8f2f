import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { associatedData, keyRingSource, loadKeyRing, openText, seal, type KeyRing } from '@meter/crypto';

export const WEBHOOK_RING = Symbol('WEBHOOK_RING');

/**
 * WEBHOOK_SECRET_KEYRING (or, outside production, a development ring under
 * DATA_DIR/keys): seals the endpoints' signing secrets. Only the
 * integrations process loads it; production refuses to start without it.
 */
export const webhookRingProvider = {
  provide: WEBHOOK_RING,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig): Promise<KeyRing> => {
    const logger = new Logger('webhook-keys');
    return loadKeyRing(keyRingSource('WEBHOOK_SECRET_KEYRING', config, { warn: (m) => logger.warn(m) }));
  },
};

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The secret sealed for one endpoint of one organization: it opens for that endpoint only. */
const aad = (orgId: string, endpointId: string) => associatedData({ purpose: 'webhook-secret', org: orgId, endpoint: endpointId });

export const sealWebhookSecret = (ring: KeyRing, orgId: string, endpointId: string, secret: string) => seal(ring, secret, aad(orgId, endpointId));
export const openWebhookSecret = (ring: KeyRing, orgId: string, endpointId: string, sealed: string) => openText(ring, sealed, aad(orgId, endpointId));
