import type { EventType } from './catalog';
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
