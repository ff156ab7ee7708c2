import { createHash } from 'node:crypto';
import { EVENT_CATALOG, EventType, webhookEnvelope } from '@fincore/events';
import type { WebhookEnvelope } from '@fincore/events';
import { signingKeyPairFromSeed, signWebhook } from '@fincore/webhooks';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The keys the examples are signed with, fixed so the document is the same on every build and a
 * subscriber can test a verifier against it. They sign nothing else.
 */
export const EXAMPLE_SECRET = `whsec_${digest('fincore webhook example secret').toString('base64')}`;
export const EXAMPLE_KEY_PAIR = signingKeyPairFromSeed(digest('fincore webhook example signing key'));

const OCCURRED_AT = new Date('2026-01-10T12:00:00.000Z');
/** Sent a second after the event occurred. */
const SENT_AT = new Date(OCCURRED_AT.getTime() + 1000);

export interface WebhookExample {
  headers: { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };
  payload: WebhookEnvelope;
  /** The body as sent, which the signatures cover. */
  body: string;
}

/** A stable UUID per type, so each example has an id of its own. */
function exampleEventId(type: string): string {
  const hex = digest(`fincore example event ${type}`).toString('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The webhook of the type's catalog example, signed with both schemes as the notifier signs it. */
export function webhookExample(type: EventType): WebhookExample {
  const payload = webhookEnvelope(
    {
      id: exampleEventId(type),
      type,
      tenantCode: 'ACME',
      occurredAt: OCCURRED_AT,
      correlationId: 'req-7f3c2d1e',
      data: EVENT_CATALOG[type].example,
    },
    null,
  );
  const body = JSON.stringify(payload);
  const headers = signWebhook({
    webhookId: payload.id,
    body,
    timestamp: SENT_AT,
    secrets: [EXAMPLE_SECRET],
    signingKeys: [EXAMPLE_KEY_PAIR.signingKey],
  });
  return { headers: { ...headers }, payload, body };
}
