import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { queryPrepared } from '@fincore/database';
import type { DeliveryStatus } from '../statuses';
import {
  AttemptRecord,
  DELIVERY_ERROR_LENGTH,
  ChainPosition,
  DeliveryForAttempt,
  DeliveryForAttemptRow,
  ENDPOINT_FOR_ATTEMPT,
  PendingDelivery,
  toDeliveryForAttempt,
} from './webhook-delivery.rows';

/** A delivery as locked before its failed attempt is recorded. */
export interface LockedForFailure {
  cycleAttempts: number;
  attemptCount: number;
  status: DeliveryStatus;
}

/**
 * The attempt's way through `notifications.webhook_deliveries` and `…_attempts`: the read before
 * sending, the chain of an ordered endpoint, and the recording of each attempt. Methods taking an
 * EntityManager run inside the caller's transaction and keep their row locks until it ends; the
 * others run on their own, the long ones as named prepared statements (parsed and planned once
 * per pooled connection). Two statements reach other tables on purpose, to stay one round trip
 * per attempt: the attempt read joins the endpoint and the event's outbox row, and a success
 * updates its endpoint's health in the same statement. An attempt of a delivery whose person was
 * erased (subject_erased_at, set under the delivery's row lock by the erasure) keeps no response
 * excerpt: its request left with the body from before the erasure. Statuses in SQL are the values of
 * DeliveryStatus (the table's CHECK constraint).
 */
@Injectable()
export class WebhookDeliveryAttemptRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The pending delivery nearest to `position` in its chain (same endpoint and subject): the first
   * before it, which must finish before it may be sent, or the next after it, to wake once it has.
   */
  async pendingInChain(
    position: ChainPosition,
    direction: 'before' | 'after',
  ): Promise<PendingDelivery | undefined> {
    const [row]: Array<{ id: string; next_attempt_at: Date | null }> = await this.db.query(
      `SELECT id, next_attempt_at FROM notifications.webhook_deliveries
        WHERE endpoint_id = $1 AND subject_type = $2 AND subject_id = $3 AND status = 'PENDING'
          AND sequence IS NOT NULL AND sequence ${direction === 'before' ? '<' : '>'} $4
        ORDER BY sequence LIMIT 1`,
      [position.endpointId, position.subjectType, position.subjectId, position.sequence],
    );
    return row && { id: row.id, nextAttemptAt: row.next_attempt_at };
  }

  /** The delivery, its endpoint and its outbox event in one read, without locks. */
  async findForAttempt(deliveryId: string): Promise<DeliveryForAttempt | undefined> {
    const [row] = await queryPrepared<DeliveryForAttemptRow>(
      this.db,
      `SELECT d.id, d.tenant_id, d.endpoint_id, d.event_id, d.status, d.next_attempt_at, d.event_occurred_at,
              d.subject_type, d.subject_id, d.sequence, ${ENDPOINT_FOR_ATTEMPT},
              o.type, o.tenant_code, o.occurred_at, o.correlation_id, o.data, o.trace_context
         FROM notifications.webhook_deliveries d
         JOIN notifications.webhook_endpoints e ON e.id = d.endpoint_id
         LEFT JOIN events.outbox o ON o.id = d.event_id
        WHERE d.id = $1`,
      [deliveryId],
    );
    return row && toDeliveryForAttempt(row);
  }

  /**
   * Locks the delivery row (FOR NO KEY UPDATE) and answers its attempts, all and in the current
   * retry cycle, and its status as locked (whether this attempt's failure may still end it).
   */
  async lockForFailedAttempt(manager: EntityManager, deliveryId: string): Promise<LockedForFailure> {
    const [row]: Array<{ cycle_attempts: number; attempt_count: number; status: DeliveryStatus }> =
      await manager.query(
        `SELECT cycle_attempts, attempt_count, status FROM notifications.webhook_deliveries
          WHERE id = $1 FOR NO KEY UPDATE`,
        [deliveryId],
      );
    return { cycleAttempts: row.cycle_attempts, attemptCount: row.attempt_count, status: row.status };
  }

  /**
   * A success needs nothing read first: the attempt, the delivery and the endpoint's health in one
   * statement (see recordSucceeded below). Waits for a delivery row another session holds.
   */
  async recordSucceededAttempt(a: AttemptRecord): Promise<DeliveryStatus | undefined> {
    const [written] = await queryPrepared<{ status: DeliveryStatus }>(
      this.db,
      ONE_SUCCESS,
      successParameters(a),
    );
    return written?.status;
  }

  /**
   * Inside the transaction that took lockForFailedAttempt: the attempt row and the delivery's new
   * state together. A delivery someone else finished while it was being sent (the tenant disabling
   * the endpoint) keeps its status. Answers the delivery's status after.
   */
  async recordFailedAttempt(manager: EntityManager, a: AttemptRecord): Promise<DeliveryStatus | undefined> {
    const [written]: Array<{ status: DeliveryStatus }> = await manager.query(
      `WITH delivery AS (
         UPDATE notifications.webhook_deliveries
            SET status = CASE WHEN status = 'PENDING' THEN $2::varchar ELSE status END,
                next_attempt_at = CASE WHEN status = 'PENDING' THEN $3::timestamptz END,
                attempt_count = attempt_count + 1, cycle_attempts = cycle_attempts + 1,
                last_attempt_at = $4::timestamptz, last_status_code = $5::int, last_error = $6::varchar, updated_at = now()
          WHERE id = $1
         RETURNING tenant_id, attempt_count, status, subject_erased_at),
       attempt AS (
         INSERT INTO notifications.webhook_delivery_attempts
           (id, delivery_id, tenant_id, attempt_number, started_at, duration_ms, status_code, outcome, error, response_excerpt,
            request_headers)
         SELECT gen_random_uuid(), $1, tenant_id, attempt_count, $7, $8, $5::int, $9::varchar, $6::varchar,
                CASE WHEN subject_erased_at IS NULL THEN $10 END, $11::jsonb
           FROM delivery)
       SELECT status FROM delivery`,
      [
        a.deliveryId,
        a.status,
        a.nextAttemptAt,
        a.finishedAt,
        a.statusCode,
        a.error?.slice(0, DELIVERY_ERROR_LENGTH) ?? null,
        a.startedAt,
        a.durationMs,
        a.outcome,
        a.responseExcerpt,
        a.requestHeaders && JSON.stringify(a.requestHeaders),
      ],
    );
    return written?.status;
  }

  /** Fails the delivery if it is still pending. */
  async failPendingDelivery(deliveryId: string, reason: string): Promise<void> {
    await this.db.query(
      `UPDATE notifications.webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL, last_error = $2, updated_at = now()
        WHERE id = $1 AND status = 'PENDING'`,
      [deliveryId, reason.slice(0, DELIVERY_ERROR_LENGTH)],
    );
  }

  /**
   * Several successes in one statement (see recordSucceeded below). Rows another session
   * holds are skipped rather than waited for, so it never deadlocks with a statement locking
   * several of them in another order: answers the status after of each delivery it recorded, and
   * the caller records the others one by one.
   */
  async recordSucceededAttempts(attempts: readonly AttemptRecord[]): Promise<Map<string, DeliveryStatus>> {
    const rows = await queryPrepared<{ id: string; status: DeliveryStatus }>(
      this.db,
      MANY_SUCCESSES,
      columnsOf(attempts.map(successParameters)),
    );
    return new Map(rows.map((r) => [r.id, r.status]));
  }
}

/** A success's values, in the order of SUCCESS_COLUMNS. */
function successParameters(a: AttemptRecord): unknown[] {
  return [
    a.deliveryId,
    a.endpointId,
    a.startedAt,
    a.finishedAt,
    a.durationMs,
    a.statusCode,
    a.responseExcerpt,
    a.requestHeaders && JSON.stringify(a.requestHeaders),
  ];
}

const SUCCESS_COLUMNS = [
  ['delivery_id', 'uuid'],
  ['endpoint_id', 'uuid'],
  ['started_at', 'timestamptz'],
  ['finished_at', 'timestamptz'],
  ['duration_ms', 'int'],
  ['status_code', 'int'],
  ['response_excerpt', 'text'],
  ['request_headers', 'jsonb'],
] as const;

/**
 * The one statement that records successes, for one attempt (scalar parameters, planned for one
 * row: cheaper than arrays of one) or many (arrays, rows another session holds skipped): each
 * attempt row, its delivery's new state and its endpoint's health. A delivery someone else
 * finished while it was being sent keeps its status; a success clears the endpoint's failure
 * streak and, at most once a second, moves its lastSuccessAt, so concurrent deliveries to one
 * endpoint do not queue behind its row lock.
 */
function recordSucceeded(rows: 'one' | 'many'): string {
  const input =
    rows === 'one'
      ? `SELECT ${SUCCESS_COLUMNS.map(([name, type], i) => `$${i + 1}::${type} AS ${name}`).join(', ')}`
      : `SELECT * FROM unnest(${SUCCESS_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
           AS i(${SUCCESS_COLUMNS.map(([name]) => name).join(', ')})`;
  // Materialized: evaluated once, however the planner joins it (as a subquery it could be rescanned per row).
  // $1 is the delivery ids: delivery_id comes first in SUCCESS_COLUMNS.
  const held =
    rows === 'one'
      ? ''
      : `
       held AS MATERIALIZED (
         SELECT id FROM notifications.webhook_deliveries WHERE id = ANY ($1::uuid[]) FOR NO KEY UPDATE SKIP LOCKED),`;
  return `WITH input AS (
         ${input}),${held}
       delivery AS (
         UPDATE notifications.webhook_deliveries d
            SET status = CASE WHEN d.status = 'PENDING' THEN 'SUCCEEDED' ELSE d.status END,
                next_attempt_at = NULL,
                delivered_at = CASE WHEN d.status = 'PENDING' THEN i.finished_at ELSE d.delivered_at END,
                attempt_count = d.attempt_count + 1, cycle_attempts = d.cycle_attempts + 1,
                last_attempt_at = i.finished_at, last_status_code = i.status_code, last_error = NULL, updated_at = now()
           FROM input i
          WHERE d.id = i.delivery_id${rows === 'one' ? '' : ' AND d.id IN (SELECT id FROM held)'}
         RETURNING d.id, d.tenant_id, d.attempt_count, d.status, i.endpoint_id, i.started_at, i.finished_at,
                   i.duration_ms, i.status_code, CASE WHEN d.subject_erased_at IS NULL THEN i.response_excerpt END AS response_excerpt,
                   i.request_headers),
       attempt AS (
         INSERT INTO notifications.webhook_delivery_attempts
           (id, delivery_id, tenant_id, attempt_number, started_at, duration_ms, status_code, outcome, error, response_excerpt,
            request_headers)
         SELECT gen_random_uuid(), id, tenant_id, attempt_count, started_at, duration_ms, status_code, 'SUCCEEDED', NULL,
                response_excerpt, request_headers
           FROM delivery),
       -- Only the endpoints whose health moves are locked: NO KEY, so the fan-outs' foreign-key checks of new
       -- deliveries to the endpoint need not wait; SKIP LOCKED, so a success never waits for the endpoint row
       -- while holding its delivery row and cannot deadlock with a disable or a failure being recorded (the
       -- next success records health).
       stale AS MATERIALIZED (
         SELECT e.id, latest.finished_at
           FROM (SELECT endpoint_id, max(finished_at) AS finished_at FROM delivery GROUP BY endpoint_id) latest
           JOIN notifications.webhook_endpoints e ON e.id = latest.endpoint_id
          WHERE e.failing_since IS NOT NULL OR e.last_success_at IS NULL
             OR e.last_success_at < latest.finished_at - interval '1 second'
            FOR NO KEY UPDATE OF e SKIP LOCKED),
       endpoint AS (
         UPDATE notifications.webhook_endpoints e SET last_success_at = stale.finished_at, failing_since = NULL
           FROM stale WHERE e.id = stale.id)
       SELECT id, status FROM delivery`;
}

const ONE_SUCCESS = recordSucceeded('one');
const MANY_SUCCESSES = recordSucceeded('many');

/** Rows of parameters as one array per column, for unnest. */
function columnsOf(rows: unknown[][]): unknown[][] {
  return SUCCESS_COLUMNS.map((_, i) => rows.map((row) => row[i]));
}
