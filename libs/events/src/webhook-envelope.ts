import { EventType, thinEventData } from './catalog';
import { DomainEvent, StoredEvent, toEnvelope } from './envelope';
import { EventSubject, subjectOf } from './subject';

/** What a webhook carries: the event, its subject, and for an ordered endpoint its sequence. */
export interface WebhookEnvelope extends DomainEvent {
  subject: EventSubject;
  /**
   * For an endpoint with ordering SUBJECT: 1, 2, 3… per subject among the events this endpoint
   * receives, in commit order; null for an endpoint receiving in parallel.
   */
  sequence: number | null;
}

export function webhookEnvelope(event: StoredEvent, sequence: number | null): WebhookEnvelope {
  const { id, type, tenantCode, occurredAt, correlationId, data } = toEnvelope(event);
  return {
    id,
    type,
    tenantCode,
    occurredAt,
    correlationId,
    subject: subjectOf(type as EventType, data),
    sequence,
    data,
  };
}

/**
 * What a THIN endpoint's webhook carries: the envelope without `correlationId`, and of the data
 * only the ids of what the event is about and `changedFields` where the type has them. The
 * receiver fetches the current state through the API; the tenant code picks its token, the
 * sequence keeps an ordered endpoint's order.
 */
export type ThinWebhookEnvelope = Omit<WebhookEnvelope, 'correlationId' | 'data'> & {
  data: Record<string, unknown>;
};

export function thinWebhookEnvelope(event: StoredEvent, sequence: number | null): ThinWebhookEnvelope {
  const { id, type, tenantCode, occurredAt, subject, data } = webhookEnvelope(event, sequence);
  return { id, type, tenantCode, occurredAt, subject, sequence, data: thinEventData(type, data) };
}
