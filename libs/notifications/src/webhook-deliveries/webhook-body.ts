import { StoredEvent, thinWebhookEnvelope, webhookEnvelope } from '@fincore/events';
import type { DeliveryForAttempt } from './webhook-delivery.rows';

/**
 * The body of a delivery's webhook, built for its endpoint from the event as stored now (thin
 * for a THIN endpoint, erased data erased), and its webhook-id: what every attempt sends and
 * what a subscriber is shown of it.
 */
export function webhookBody(
  delivery: Pick<DeliveryForAttempt, 'endpoint' | 'chain'>,
  event: StoredEvent,
): { webhookId: string; body: string } {
  const sequence = delivery.chain?.sequence ?? null;
  const envelope =
    delivery.endpoint.payload === 'THIN'
      ? thinWebhookEnvelope(event, sequence)
      : webhookEnvelope(event, sequence);
  return { webhookId: envelope.id, body: JSON.stringify(envelope) };
}
