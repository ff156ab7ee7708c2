import type { DomainEvent } from './envelope';
import { subjectOf } from './subject';

/** The values of an outbox insert's parameters, in order: the rows of the events (see outboxRows). */
export type OutboxRows = readonly unknown[];

/** The events as the outbox insert takes them: nine parameters, whatever their number. */
export function outboxRows(events: readonly DomainEvent[], traceContext: string | null): OutboxRows {
  const subjects = events.map((e) => subjectOf(e.type, e.data));
  return [
    traceContext,
    events.map((e) => e.id),
    events.map((e) => e.type),
    events.map((e) => e.tenantCode),
    events.map((e) => e.occurredAt),
    events.map((e) => e.correlationId),
    events.map((e) => JSON.stringify(e.data)),
    subjects.map((s) => s.type),
    subjects.map((s) => s.id),
  ];
}

/** The outbox insert, its OutboxRows being the parameters `$first` to `$first + 8`. */
export function insertSql(first: number, publishing: boolean): string {
  const $ = (i: number) => `$${first + i}`;
  return `INSERT INTO events.outbox (id, type, tenant_code, occurred_at, correlation_id, data, subject_type, subject_id,
                                  trace_context, published_at, publish_attempts)
       SELECT e.*, ${$(0)}::text, ${publishing ? 'now(), 1' : 'NULL, 0'}
         FROM unnest(${$(1)}::uuid[], ${$(2)}::varchar[], ${$(3)}::varchar[], ${$(4)}::timestamptz[],
                     ${$(5)}::varchar[], ${$(6)}::jsonb[], ${$(7)}::varchar[], ${$(8)}::text[]) AS e`;
}

/**
 * The outbox insert as a data-modifying CTE of a one-statement change (see
 * UnitOfWork.changeAsReadOrLocked), its OutboxRows being the parameters `$first` to `$first + 8`:
 * the events, already marked published, written only when the statement's CTE `guard` returned a
 * row. The position is taken after `guard`'s rows exist, so a guard that locks the subject's row
 * (an UPDATE of it) orders the events as insertEvents under a lock does.
 */
export function outboxInsertWhen(guard: string, first: number): string {
  return `${insertSql(first, true)} WHERE EXISTS (SELECT 1 FROM ${guard})`;
}
