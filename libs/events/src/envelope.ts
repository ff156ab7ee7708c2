import type { EventData, EventType } from './catalog';

/** What subscribers receive, and what the outbox stores. */
export interface DomainEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  tenantCode: string;
  occurredAt: string;
  /** Request id of the call that caused the event, for tracing across services. */
  correlationId: string | null;
  data: EventData<T>;
}

/** The stored fields of an outbox row, as the entity names them. */
export interface StoredEvent {
  id: string;
  type: string;
  tenantCode: string;
  occurredAt: Date;
  correlationId: string | null;
  data: Record<string, unknown>;
}

/** An outbox row as raw SQL returns it, e.g. joined into another context's statement. */
export interface OutboxRow {
  id: string;
  type: string;
  tenant_code: string;
  occurred_at: Date;
  correlation_id: string | null;
  data: Record<string, unknown>;
}

export function toEnvelope(event: StoredEvent): DomainEvent {
  return {
    id: event.id,
    type: event.type as EventType,
    tenantCode: event.tenantCode,
    occurredAt: event.occurredAt.toISOString(),
    correlationId: event.correlationId,
    data: event.data as DomainEvent['data'],
  };
}

export function storedEventFromRow(row: OutboxRow): StoredEvent {
  return {
    id: row.id,
    type: row.type,
    tenantCode: row.tenant_code,
    occurredAt: row.occurred_at,
    correlationId: row.correlation_id,
    data: row.data,
  };
}

export function envelopeFromRow(row: OutboxRow): DomainEvent {
  return toEnvelope(storedEventFromRow(row));
}
