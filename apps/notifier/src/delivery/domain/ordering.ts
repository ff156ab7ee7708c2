import { DomainEvent, EventSubject, EventType, StoredEvent, subjectOf, toEnvelope } from '@fincore/events';

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

/** How long after the head's own due time a waiting delivery looks again, if nobody woke it. */
export const CHAIN_RECHECK_MS = 1000;
/** The longest a waiting delivery sleeps without looking, whatever the head's schedule says. */
export const CHAIN_MAX_WAIT_MS = 5 * 60_000;

/**
 * When a delivery that waits behind an earlier pending one of its chain looks again: just after
 * the head's next attempt, when it may have finished. The head's worker wakes it sooner when the
 * head finishes; this time is only the net for a wake-up lost to a crash, so it is capped.
 */
export function recheckBehindHead(headDueAt: Date | null, now: Date): Date {
  const due = Math.max(headDueAt?.getTime() ?? now.getTime(), now.getTime());
  return new Date(Math.min(due + CHAIN_RECHECK_MS, now.getTime() + CHAIN_MAX_WAIT_MS));
}
