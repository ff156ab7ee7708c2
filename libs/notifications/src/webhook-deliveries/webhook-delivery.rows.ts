import { OutboxEventEntity } from '@fincore/events';
import type { WebhookEndpointEntity } from '../webhook-endpoints/webhook-endpoint.entity';
import type { AttemptOutcome, DeliveryStatus, EndpointPayload, EndpointStatus } from '../statuses';

/** The size of last_error; longer reasons are cut. */
export const DELIVERY_ERROR_LENGTH = 500;

/**
 * What an attempt needs of endpoint `e`: its address, state, secrets, rate limit and the pause
 * left. The fan-out's statement and the attempt read both answer it, as DeliveryForAttemptRow.
 */
export const ENDPOINT_FOR_ATTEMPT = `e.url, e.status AS endpoint_status, e.deleted_at, e.disabled_reason,
  e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at,
  e.rate_limit, e.payload, e.signature_schemes, e.signing_key_sealed, e.previous_signing_key_sealed,
  e.failing_notified_at, e.tls_sealed,
  GREATEST(0, EXTRACT(EPOCH FROM e.paused_until - clock_timestamp()) * 1000)::float8 AS paused_for_ms`;

/** A delivery with what one attempt needs: its endpoint's address and secrets, and its event. */
export interface DeliveryForAttempt {
  id: string;
  tenantId: string;
  endpointId: string;
  eventId: string;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  eventOccurredAt: Date;
  /** Its place in the chain of an ordered endpoint; null for a delivery sent in parallel. */
  chain: ChainPosition | null;
  endpoint: Pick<
    WebhookEndpointEntity,
    | 'url'
    | 'status'
    | 'deletedAt'
    | 'disabledReason'
    | 'secretSealed'
    | 'previousSecretSealed'
    | 'previousSecretExpiresAt'
    | 'rateLimit'
    | 'payload'
    | 'signatureSchemes'
    | 'signingKeySealed'
    | 'previousSigningKeySealed'
    | 'failingNotifiedAt'
    | 'tlsSealed'
  >;
  /** From the outbox; null when the event is missing there. */
  event: OutboxEventEntity | null;
  /** How much longer the endpoint's Retry-After pause runs, on the database's clock; 0: none. */
  endpointPausedForMs: number;
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
  /** The headers the attempt sent; null where none went out (no connection made). */
  requestHeaders: Record<string, string> | null;
  /** Applied only if the delivery is still pending: someone may have finished it meanwhile. */
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
}

/** A delivery to an ordered endpoint: its endpoint, its subject and its sequence for both. */
export interface ChainPosition {
  endpointId: string;
  subjectType: string;
  subjectId: string;
  sequence: number;
}

/** A delivery the fan-out just created, with what its first attempt needs. */
export interface CreatedDelivery extends PendingDelivery {
  tenantId: string;
  notificationTypeCode: string;
  forAttempt: DeliveryForAttempt;
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
  subject_type: string | null;
  subject_id: string | null;
  /** bigint: pg answers it as a string. */
  sequence: string | null;
  url: string;
  endpoint_status: EndpointStatus;
  deleted_at: Date | null;
  disabled_reason: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  rate_limit: number | null;
  payload: EndpointPayload;
  signature_schemes: string[];
  signing_key_sealed: string | null;
  previous_signing_key_sealed: string | null;
  failing_notified_at: Date | null;
  tls_sealed: string | null;
  type: string | null;
  tenant_code: string;
  occurred_at: Date;
  correlation_id: string | null;
  data: Record<string, unknown>;
  trace_context: string | null;
  /** double precision, 0 when the endpoint is not paused. */
  paused_for_ms: number;
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
    chain:
      row.sequence !== null && row.subject_type !== null && row.subject_id !== null
        ? {
            endpointId: row.endpoint_id,
            subjectType: row.subject_type,
            subjectId: row.subject_id,
            sequence: Number(row.sequence),
          }
        : null,
    endpoint: {
      url: row.url,
      status: row.endpoint_status,
      deletedAt: row.deleted_at,
      disabledReason: row.disabled_reason,
      secretSealed: row.secret_sealed,
      previousSecretSealed: row.previous_secret_sealed,
      previousSecretExpiresAt: row.previous_secret_expires_at,
      rateLimit: row.rate_limit,
      payload: row.payload,
      signatureSchemes: row.signature_schemes,
      signingKeySealed: row.signing_key_sealed,
      previousSigningKeySealed: row.previous_signing_key_sealed,
      failingNotifiedAt: row.failing_notified_at,
      tlsSealed: row.tls_sealed,
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
    endpointPausedForMs: Math.max(0, Math.ceil(Number(row.paused_for_ms ?? 0))),
  };
}
