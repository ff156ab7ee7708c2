import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { EVENT_CATALOG, EventData, EventType } from './catalog';
import type { DomainEvent } from './envelope';
import { OutboxEventEntity } from './outbox.entity';

export class InvalidEventDataError extends Error {}

/**
 * Writes a domain event into the outbox with the caller's EntityManager, so it commits or rolls
 * back with the state change it describes. Data is checked against the catalog schema.
 */
export async function recordEvent<T extends EventType>(
  manager: EntityManager,
  input: {
    type: T;
    tenantCode: string;
    data: EventData<T>;
    correlationId?: string | null;
    occurredAt?: Date;
  },
): Promise<DomainEvent<T>> {
  const parsed = EVENT_CATALOG[input.type].schema.safeParse(input.data);
  if (!parsed.success) {
    throw new InvalidEventDataError(
      `Data of ${input.type} does not match its schema: ${parsed.error.message}`,
    );
  }
  const occurredAt = input.occurredAt ?? new Date();
  const event: DomainEvent<T> = {
    id: randomUUID(),
    type: input.type,
    tenantCode: input.tenantCode,
    occurredAt: occurredAt.toISOString(),
    correlationId: input.correlationId ?? null,
    data: parsed.data as EventData<T>,
  };
  // Plain SQL: works with any EntityManager, whatever entities its DataSource registered.
  await manager.query(
    `INSERT INTO events.outbox (id, type, tenant_code, occurred_at, correlation_id, data) VALUES ($1, $2, $3, $4, $5, $6)`,
    [event.id, event.type, event.tenantCode, occurredAt, event.correlationId, JSON.stringify(event.data)],
  );
  return event;
}

export function toEnvelope(row: OutboxEventEntity): DomainEvent {
  return {
    id: row.id,
    type: row.type as EventType,
    tenantCode: row.tenantCode,
    occurredAt: row.occurredAt.toISOString(),
    correlationId: row.correlationId,
    data: row.data as DomainEvent['data'],
  };
}
