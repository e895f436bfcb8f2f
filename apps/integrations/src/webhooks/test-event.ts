import { WEBHOOK_TEST_EVENT } from '@meter/contracts';

/**
 * The `webhook.test` event of one endpoint: the body every attempt sends
 * (`{type, timestamp, data}` as any event), with its event id.
 */
export function testEvent(endpointId: string, eventId: string, at: Date): { eventId: string; body: string } {
  const data = { endpoint_id: endpointId, message: 'A test event sent from the management API: this endpoint receives and verifies deliveries.' };
  return { eventId, body: JSON.stringify({ type: WEBHOOK_TEST_EVENT, timestamp: at.toISOString(), data }) };
}
