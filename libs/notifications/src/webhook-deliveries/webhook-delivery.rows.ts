import { OutboxEventEntity } from '@fincore/events';
import type { WebhookEndpointEntity } from '../webhook-endpoints/webhook-endpoint.entity';
import type { AttemptOutcome, DeliveryStatus, EndpointStatus } from '../statuses';

/** A delivery with what one attempt needs: its endpoint's address and secrets, and its event. */
export interface DeliveryForAttempt {
  id: string;
  tenantId: string;
  endpointId: string;
  eventId: string;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  eventOccurredAt: Date;
  endpoint: Pick<
    WebhookEndpointEntity,
    | 'url'
    | 'status'
    | 'deletedAt'
    | 'disabledReason'
    | 'secretSealed'
    | 'previousSecretSealed'
    | 'previousSecretExpiresAt'
  >;
  /** From the outbox; null when the event is missing there. */
  event: OutboxEventEntity | null;
}

/** One finished HTTP attempt and the state it moves its delivery to. */
export interface AttemptRecord {
  deliveryId: string;
  endpointId: string;
  startedAt: Date;
  finishedAt: Date;
  durationMs: number;
  statusCode: number | null;
  outcome: AttemptOutcome;
  error: string | null;
  responseExcerpt: string | null;
  /** Applied only if the delivery is still pending: someone may have finished it meanwhile. */
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
}

/** A delivery that exists and is pending, with when it is due. */
export interface PendingDelivery {
  id: string;
  nextAttemptAt: Date | null;
}

/** Keyset position in (created_at, id) order. */
export interface DeliveryPosition {
  createdAt: Date;
  id: string;
}

export interface DeliveryForAttemptRow {
  id: string;
  tenant_id: string;
  endpoint_id: string;
  event_id: string;
  status: DeliveryStatus;
  next_attempt_at: Date | null;
  event_occurred_at: Date;
  url: string;
  endpoint_status: EndpointStatus;
  deleted_at: Date | null;
  disabled_reason: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  type: string | null;
  tenant_code: string;
  occurred_at: Date;
  correlation_id: string | null;
  data: Record<string, unknown>;
  trace_context: string | null;
}

export function toDeliveryForAttempt(row: DeliveryForAttemptRow): DeliveryForAttempt {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    status: row.status,
    nextAttemptAt: row.next_attempt_at,
    eventOccurredAt: row.event_occurred_at,
    endpoint: {
      url: row.url,
      status: row.endpoint_status,
      deletedAt: row.deleted_at,
      disabledReason: row.disabled_reason,
      secretSealed: row.secret_sealed,
      previousSecretSealed: row.previous_secret_sealed,
      previousSecretExpiresAt: row.previous_secret_expires_at,
    },
    event: row.type
      ? Object.assign(new OutboxEventEntity(), {
          id: row.event_id,
          type: row.type,
          tenantCode: row.tenant_code,
          occurredAt: row.occurred_at,
          correlationId: row.correlation_id,
          data: row.data,
          traceContext: row.trace_context,
        })
      : null,
  };
}
