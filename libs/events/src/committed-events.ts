import { OutboxRow, StoredEvent, storedEventFromRow } from './envelope';

/**
 * Where an event stands in commit order: its commit-order key (the writing transaction's id, raised
 * to its subject's previous event's), then its row's position. Both are PostgreSQL 64-bit integers,
 * kept as their decimal text.
 */
export interface CommitOrderPosition {
  key: string;
  position: string;
}

/** An event of the committed range, with its place in it and when it was written. */
export interface CommittedEvent {
  event: StoredEvent;
  at: CommitOrderPosition;
  createdAt: Date;
}

export interface CommittedRangeQuery {
  tenantCode: string;
  /** The last event read before; the range starts at the beginning without it. */
  after?: CommitOrderPosition;
  types: readonly string[];
  /** Only events written after this (the retention window). */
  since: Date;
  limit: number;
}

export interface CommittedEventRow extends OutboxRow {
  commit_order: string;
  position: string;
  created_at: Date;
}

/**
 * Rows keyed below the oldest transaction still in progress: all of them are committed, and every
 * row to come gets a larger key, so no row can join this part of the order later.
 */
export const COMMITTED_RANGE_SQL = `
  SELECT id, type, tenant_code, occurred_at, correlation_id, data, commit_order::text AS commit_order,
         position::text AS position, created_at
    FROM events.outbox o
   WHERE tenant_code = $1
     AND commit_order < pg_snapshot_xmin(pg_current_snapshot())
     AND (o.commit_order, o.position) > ($2::xid8, $3::bigint)
     AND type = ANY($4::varchar[])
     AND created_at > $5
   ORDER BY o.commit_order, o.position
   LIMIT $6`;

export function committedRangeParams(q: CommittedRangeQuery): unknown[] {
  return [q.tenantCode, q.after?.key ?? '0', q.after?.position ?? '0', q.types, q.since, q.limit];
}

export const toCommittedEvent = (r: CommittedEventRow): CommittedEvent => ({
  event: storedEventFromRow(r),
  at: { key: r.commit_order, position: r.position },
  createdAt: r.created_at,
});
