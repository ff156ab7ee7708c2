import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { DomainEvent, EventInput, EventType, newDomainEvents, OutboxRepository } from '@fincore/events';
import { serializeTraceContext } from '@fincore/platform';
import { eventually } from './http';

/** An `events.outbox` row as the tests read it. */
export interface OutboxRow {
  id: string;
  type: string;
  tenantCode: string;
  correlationId: string | null;
  data: Record<string, any>;
  occurredAt: Date;
  publishedAt: Date | null;
  processedAt: Date | null;
  /** The serialised W3C trace context of the request that recorded it; null without tracing. */
  traceContext: string | null;
}

/** Which outbox rows: every given condition must hold; `data` compares top-level JSON values exactly. */
export interface OutboxFilter {
  id?: string;
  ids?: string[];
  type?: string;
  tenantCode?: string;
  data?: Record<string, unknown>;
}

/** How many rows, or exactly these rows in this order (each compared on the fields given). */
export type ExpectedOutboxEvents = number | Array<Partial<OutboxRow>>;

/** The outbox rows matching the filter, oldest first. */
export async function outboxEvents(db: DataSource, filter: OutboxFilter): Promise<OutboxRow[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (filter.id !== undefined) where.push(`id = ${param(filter.id)}`);
  if (filter.ids !== undefined) where.push(`id = ANY(${param(filter.ids)}::uuid[])`);
  if (filter.type !== undefined) where.push(`type = ${param(filter.type)}`);
  if (filter.tenantCode !== undefined) where.push(`tenant_code = ${param(filter.tenantCode)}`);
  for (const [key, value] of Object.entries(filter.data ?? {}))
    where.push(`data -> ${param(key)} = ${param(JSON.stringify(value))}::jsonb`);
  return db.query(
    `SELECT id, type, tenant_code AS "tenantCode", correlation_id AS "correlationId", data,
            occurred_at AS "occurredAt", published_at AS "publishedAt", processed_at AS "processedAt",
            trace_context AS "traceContext"
       FROM events.outbox ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY created_at, id`,
    params,
  );
}

/**
 * Asserts the outbox rows matching the filter: how many, or exactly these rows in this order (each
 * compared on the fields given, e.g. `{ tenantCode, data }`). Returns the rows.
 */
export async function expectOutboxEvents(
  db: DataSource,
  filter: OutboxFilter,
  expected: ExpectedOutboxEvents,
): Promise<OutboxRow[]> {
  const rows = await outboxEvents(db, filter);
  if (typeof expected === 'number') expect(rows).toHaveLength(expected);
  else expect(rows).toEqual(expected.map((row) => expect.objectContaining(row)));
  return rows;
}

/**
 * Writes one event into the outbox with the caller's transaction, unpublished, as a process that
 * died before publishing leaves it.
 */
export async function recordEvent<T extends EventType>(
  manager: EntityManager,
  input: EventInput<T>,
): Promise<DomainEvent<T>> {
  const [event] = newDomainEvents([input]);
  await new OutboxRepository(manager.dataSource).insertEvents(manager, [event], {
    traceContext: serializeTraceContext(),
  });
  return event;
}

/** Commits one event through the outbox, as an app's unit of work would. */
export function commitEvent<T extends EventType>(
  db: DataSource,
  input: EventInput<T>,
): Promise<DomainEvent<T>> {
  return db.transaction((manager) => recordEvent(manager, input));
}

/** Commits a PERSON_UPDATED event for the tenant (of a new person unless given), as the credentials API would. */
export function commitPersonUpdated(
  db: DataSource,
  tenantCode: string,
  personId: string = randomUUID(),
): Promise<DomainEvent<'PERSON_UPDATED'>> {
  return commitEvent(db, {
    type: 'PERSON_UPDATED',
    tenantCode,
    data: { personId, changedFields: ['lastName'] },
  });
}

/** Waits until the consumer marked the event processed; returns when that was. */
export function eventuallyProcessed(db: DataSource, eventId: string): Promise<Date> {
  return eventually(async () => (await outboxEvents(db, { id: eventId }))[0]?.processedAt, {
    what: `event ${eventId} processed`,
  });
}
