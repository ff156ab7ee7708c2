import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { EVENT_CATALOG, EventData, EventType } from './catalog';
import type { DomainEvent } from './envelope';
import { OutboxEventEntity } from './outbox.entity';

export class InvalidEventDataError extends Error {}

export interface EventInput<T extends EventType> {
  type: T;
  tenantCode: string;
  data: EventData<T>;
  correlationId?: string | null;
  occurredAt?: Date;
}

/**
 * Writes a domain event into the outbox with the caller's EntityManager, so it commits or rolls
 * back with the state change it describes. Data is checked against the catalog schema.
 */
export async function recordEvent<T extends EventType>(
  manager: EntityManager,
  input: EventInput<T>,
): Promise<DomainEvent<T>> {
  const [event] = await recordEvents(manager, [input]);
  return event;
}

/**
 * Writes several events in one statement, whatever their number: a change that touches many rows
 * (a usage group's cards) would otherwise make one round trip per event while holding its locks.
 * All are checked before any is written.
 */
export async function recordEvents<T extends EventType>(
  manager: EntityManager,
  inputs: readonly EventInput<T>[],
): Promise<DomainEvent<T>[]> {
  const events = inputs.map((input): DomainEvent<T> => {
    const parsed = EVENT_CATALOG[input.type].schema.safeParse(input.data);
    if (!parsed.success) {
      throw new InvalidEventDataError(
        `Data of ${input.type} does not match its schema: ${parsed.error.message}`,
      );
    }
    return {
      id: randomUUID(),
      type: input.type,
      tenantCode: input.tenantCode,
      occurredAt: (input.occurredAt ?? new Date()).toISOString(),
      correlationId: input.correlationId ?? null,
      data: parsed.data as EventData<T>,
    };
  });
  if (events.length === 0) return events;
  // Plain SQL: works with any EntityManager, whatever entities its DataSource registered.
  await manager.query(
    `INSERT INTO events.outbox (id, type, tenant_code, occurred_at, correlation_id, data)
     SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::timestamptz[], $5::varchar[], $6::jsonb[])`,
    [
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => e.tenantCode),
      events.map((e) => e.occurredAt),
      events.map((e) => e.correlationId),
      events.map((e) => JSON.stringify(e.data)),
    ],
  );
  return events;
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
