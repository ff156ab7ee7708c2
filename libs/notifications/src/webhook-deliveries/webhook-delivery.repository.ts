import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { queryPrepared } from '@fincore/database';
import { ChannelCode } from '../channels';
import { updatedRows } from '../sql-results';
import { EndpointOrdering, type DeliveryStatus } from '../statuses';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import {
  AttemptRecord,
  ChainPosition,
  CreatedDelivery,
  DeliveryForAttempt,
  DeliveryForAttemptRow,
  DeliveryPosition,
  PendingDelivery,
  toDeliveryForAttempt,
} from './webhook-delivery.rows';

/** The size of last_error; longer reasons are cut. */
export const DELIVERY_ERROR_LENGTH = 500;

export interface DeliveryListFilter {
  status?: DeliveryStatus;
  endpointId?: string;
  notificationTypeCode?: string;
  /** Only deliveries after this position in newest-first order. */
  before?: DeliveryPosition;
}

/**
 * `notifications.webhook_deliveries` with their attempts. Methods taking an EntityManager run
 * inside the caller's transaction and keep their row locks until it ends; the others run on
 * their own. Statuses in SQL are the values of DeliveryStatus (the table's CHECK constraint).
 *
 * Two statements reach beyond the delivery rows on purpose, to stay one round trip on the
 * delivery hot path: the fan-out claims its event in `events.outbox`, and the attempt read joins
 * the outbox for the event's payload. A success also updates its endpoint's health in the same
 * statement as the attempt.
 */
/** Outbox row `o` is an earlier event than `x` about the same subject: it must be fanned out first. */
const EARLIER_OF_SUBJECT = `(o.tenant_code = x.tenant_code AND o.subject_type = x.subject_type
  AND o.subject_id = x.subject_id AND o.position < x.position)`;

/** What an attempt needs of endpoint `e`: its address, state, secrets, rate limit and the pause left. */
const ENDPOINT_FOR_ATTEMPT = `e.url, e.status AS endpoint_status, e.deleted_at, e.disabled_reason,
  e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at,
  e.rate_limit, e.signature_schemes, e.signing_key_sealed, e.previous_signing_key_sealed,
  GREATEST(0, EXTRACT(EPOCH FROM e.paused_until - clock_timestamp()) * 1000)::float8 AS paused_for_ms`;

@Injectable()
export class WebhookDeliveryRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Fans out the event and, first, every earlier event of its subject not fanned out yet, oldest
   * first: each is marked processed and gets one pending delivery per active endpoint of its tenant
   * that wants its type, if the tenant enabled the type over WEBHOOK before the event occurred.
   * The subject's unprocessed events are locked in position order, so two fan-outs of one subject
   * run one after the other and the sequences of ordered endpoints follow commit order. All in one
   * transaction; an event already processed creates nothing.
   */
  async claimEventAndCreateDeliveries(eventId: string, now: Date): Promise<CreatedDelivery[]> {
    // Almost always the event is the only one of its subject not fanned out: one statement on its
    // own, instead of a transaction of four round trips, claims it and creates its deliveries.
    const alone = await this.fanOutClaimed(this.db.manager, eventId, now, 'alone');
    if (alone) return alone;
    return this.db.transaction(async (manager) => {
      const events: Array<{ id: string }> = await manager.query(
        `SELECT o.id FROM events.outbox o JOIN events.outbox x ON x.id = $1
          WHERE o.processed_at IS NULL
            AND (o.id = x.id OR ${EARLIER_OF_SUBJECT})
          ORDER BY o.position
          FOR UPDATE OF o`,
        [eventId],
      );
      const created: CreatedDelivery[] = [];
      for (const event of events)
        created.push(...((await this.fanOutClaimed(manager, event.id, now, 'locked')) ?? []));
      return created;
    });
  }

  /** Count of the tenant's pending deliveries: its backlog. */
  async countPendingOfTenant(tenantId: string): Promise<number> {
    const [row]: Array<{ n: number }> = await this.db.query(
      `SELECT count(*)::int AS n FROM notifications.webhook_deliveries WHERE tenant_id = $1 AND status = 'PENDING'`,
      [tenantId],
    );
    return row.n;
  }

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

  /**
   * One event marked processed and its deliveries created; undefined when it was not claimed.
   * 'locked': the caller holds the event (and its subject's earlier ones) locked. 'alone': claimed
   * only while no earlier event of its subject waits to be fanned out, which would have to go first.
   */
  private async fanOutClaimed(
    manager: EntityManager,
    eventId: string,
    now: Date,
    claim: 'locked' | 'alone',
  ): Promise<CreatedDelivery[] | undefined> {
    const rows = await this.run<DeliveryForAttemptRow & { id: string | null }>(
      manager,
      `WITH event AS (
         UPDATE events.outbox x SET processed_at = now() WHERE x.id = $1 AND x.processed_at IS NULL
         ${
           claim === 'alone'
             ? // OFFSET 0 keeps the check a lookup by the subject's key per event: pulled up into a join,
               // the planner may scan every event not fanned out yet, which is the backlog.
               `AND NOT EXISTS (SELECT 1 FROM events.outbox o WHERE o.processed_at IS NULL AND ${EARLIER_OF_SUBJECT} OFFSET 0)`
             : ''
         }
         RETURNING id, type, tenant_code, occurred_at, subject_type, subject_id, correlation_id, data, trace_context),
       target AS (
         SELECT e.tenant_id, e.id AS endpoint_id, e.ordering, ${ENDPOINT_FOR_ATTEMPT}
           FROM event
           JOIN platform.tenants t ON t.code = event.tenant_code
           JOIN notifications.notification_configs c
             ON c.tenant_id = t.id AND c.notification_type_code = event.type AND c.channel_code = $3
            AND c.enabled AND c.enabled_at <= event.occurred_at
           JOIN notifications.webhook_endpoints e
             ON e.tenant_id = t.id AND e.status = 'ACTIVE' AND e.deleted_at IS NULL AND e.created_at <= event.occurred_at
            AND (e.notification_type_codes IS NULL OR event.type = ANY (e.notification_type_codes))),
       -- an ordered endpoint numbers its deliveries per subject: 1, 2, 3… in the order of fan-out
       sequenced AS (
         INSERT INTO notifications.webhook_subject_sequences AS s (endpoint_id, subject_type, subject_id, last_sequence)
         SELECT target.endpoint_id, event.subject_type, event.subject_id, 1 FROM target, event
          WHERE target.ordering = $4 AND event.subject_id IS NOT NULL
         ON CONFLICT (endpoint_id, subject_type, subject_id) DO UPDATE SET last_sequence = s.last_sequence + 1
         RETURNING endpoint_id, last_sequence),
       created AS (
         INSERT INTO notifications.webhook_deliveries
           (id, tenant_id, endpoint_id, event_id, notification_type_code, event_occurred_at, status, next_attempt_at,
            created_at, updated_at, subject_type, subject_id, sequence)
         SELECT gen_random_uuid(), target.tenant_id, target.endpoint_id, event.id, event.type, event.occurred_at,
                'PENDING', $2, $2, $2, event.subject_type, event.subject_id, sequenced.last_sequence
           FROM target CROSS JOIN event LEFT JOIN sequenced ON sequenced.endpoint_id = target.endpoint_id
         ON CONFLICT (tenant_id, event_id, endpoint_id) DO NOTHING
         RETURNING id, tenant_id, endpoint_id, event_id, status, next_attempt_at, event_occurred_at,
                   subject_type, subject_id, sequence)
       -- with what the first attempt needs; one row without id says the event was claimed but nobody wants it
       SELECT d.*, target.url, target.endpoint_status, target.deleted_at, target.disabled_reason,
              target.secret_sealed, target.previous_secret_sealed, target.previous_secret_expires_at,
              target.rate_limit, target.signature_schemes, target.signing_key_sealed,
              target.previous_signing_key_sealed, target.paused_for_ms,
              event.type, event.tenant_code, event.occurred_at, event.correlation_id, event.data, event.trace_context
         FROM event
         LEFT JOIN (created d JOIN target ON target.endpoint_id = d.endpoint_id) ON true`,
      [eventId, now, ChannelCode.Webhook, EndpointOrdering.Subject],
    );
    if (!rows.length) return undefined;
    return rows.filter(hasId).map((r) => ({
      id: r.id,
      tenantId: r.tenant_id,
      nextAttemptAt: r.next_attempt_at,
      notificationTypeCode: r.type!,
      forAttempt: toDeliveryForAttempt(r),
    }));
  }

  /**
   * The pending deliveries of an event; undefined when the event is not in the outbox. As in
   * pagePending, those created after `firstAttemptsSince` and never attempted are left out: their
   * first attempt may be under way.
   */
  async findPendingForEvent(
    eventId: string,
    firstAttemptsSince: Date,
  ): Promise<Array<PendingDelivery & { tenantId: string }> | undefined> {
    const rows: Array<{ id: string | null; tenant_id: string; next_attempt_at: Date | null }> =
      await this.db.query(
        `SELECT d.id, d.tenant_id, d.next_attempt_at FROM events.outbox o
           LEFT JOIN notifications.webhook_deliveries d ON d.event_id = o.id AND d.status = 'PENDING'
                 AND NOT (d.attempt_count = 0 AND d.created_at > $2)
          WHERE o.id = $1`,
        [eventId, firstAttemptsSince],
      );
    if (!rows.length) return undefined;
    return rows
      .filter((r): r is { id: string; tenant_id: string; next_attempt_at: Date | null } => r.id !== null)
      .map((r) => ({ id: r.id, tenantId: r.tenant_id, nextAttemptAt: r.next_attempt_at }));
  }

  /** The delivery, its endpoint and its outbox event in one read, without locks. */
  async findForAttempt(deliveryId: string): Promise<DeliveryForAttempt | undefined> {
    const [row] = await this.run<DeliveryForAttemptRow>(
      this.db.manager,
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

  /** Locks the delivery row (FOR NO KEY UPDATE) and answers its attempts in the current retry cycle. */
  async lockForFailedAttempt(manager: EntityManager, deliveryId: string): Promise<number> {
    const [row]: Array<{ cycle_attempts: number }> = await manager.query(
      `SELECT cycle_attempts FROM notifications.webhook_deliveries WHERE id = $1 FOR NO KEY UPDATE`,
      [deliveryId],
    );
    return row.cycle_attempts;
  }

  /** A success needs nothing read first: the attempt, the delivery and the endpoint's health in one statement. */
  recordSucceededAttempt(attempt: AttemptRecord): Promise<DeliveryStatus | undefined> {
    return this.recordAttempt(this.db.manager, attempt);
  }

  /**
   * Several successes in one statement, as recordSucceededAttempt records each. Rows another session
   * holds are skipped rather than waited for, so it never deadlocks with a statement locking several
   * of them in another order: answers the status after of each delivery it recorded, and the caller
   * records the others one by one.
   */
  async recordSucceededAttempts(attempts: readonly AttemptRecord[]): Promise<Map<string, DeliveryStatus>> {
    const rows = await this.run<{ id: string; status: DeliveryStatus }>(
      this.db.manager,
      `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::timestamptz[], $5::int[], $6::int[], $7::text[])
           AS i(delivery_id, endpoint_id, started_at, finished_at, duration_ms, status_code, response_excerpt)),
       locked AS (
         SELECT id FROM notifications.webhook_deliveries WHERE id IN (SELECT delivery_id FROM input)
         FOR NO KEY UPDATE SKIP LOCKED),
       delivery AS (
         UPDATE notifications.webhook_deliveries d
            SET status = CASE WHEN d.status = 'PENDING' THEN 'SUCCEEDED' ELSE d.status END,
                next_attempt_at = NULL,
                delivered_at = CASE WHEN d.status = 'PENDING' THEN i.finished_at ELSE d.delivered_at END,
                attempt_count = d.attempt_count + 1, cycle_attempts = d.cycle_attempts + 1,
                last_attempt_at = i.finished_at, last_status_code = i.status_code, last_error = NULL, updated_at = now()
           FROM input i
          WHERE d.id = i.delivery_id AND d.id IN (SELECT id FROM locked)
         RETURNING d.id, d.tenant_id, d.attempt_count, d.status, i.endpoint_id, i.started_at, i.finished_at,
                   i.duration_ms, i.status_code, i.response_excerpt),
       attempt AS (
         INSERT INTO notifications.webhook_delivery_attempts
           (id, delivery_id, tenant_id, attempt_number, started_at, duration_ms, status_code, outcome, error, response_excerpt)
         SELECT gen_random_uuid(), id, tenant_id, attempt_count, started_at, duration_ms, status_code, 'SUCCEEDED', NULL,
                response_excerpt
           FROM delivery),
       endpoint AS (
         UPDATE notifications.webhook_endpoints e SET last_success_at = latest.finished_at, failing_since = NULL
           FROM (SELECT endpoint_id, max(finished_at) AS finished_at FROM delivery GROUP BY endpoint_id) latest
          WHERE e.id = latest.endpoint_id
            -- NO KEY: the fan-outs' foreign-key checks of new deliveries to the endpoint need not wait
            AND e.id IN (SELECT id FROM notifications.webhook_endpoints WHERE id IN (SELECT endpoint_id FROM delivery)
                         FOR NO KEY UPDATE SKIP LOCKED)
            AND (e.failing_since IS NOT NULL OR e.last_success_at IS NULL OR e.last_success_at < latest.finished_at - interval '1 second'))
       SELECT id, status FROM delivery`,
      [
        attempts.map((a) => a.deliveryId),
        attempts.map((a) => a.endpointId),
        attempts.map((a) => a.startedAt),
        attempts.map((a) => a.finishedAt),
        attempts.map((a) => a.durationMs),
        attempts.map((a) => a.statusCode),
        attempts.map((a) => a.responseExcerpt),
      ],
    );
    return new Map(rows.map((r) => [r.id, r.status]));
  }

  /** Inside the transaction that took lockForFailedAttempt. */
  recordFailedAttempt(manager: EntityManager, attempt: AttemptRecord): Promise<DeliveryStatus | undefined> {
    return this.recordAttempt(manager, attempt);
  }

  /** Fails the delivery if it is still pending. */
  async failPendingDelivery(deliveryId: string, reason: string): Promise<void> {
    await this.failPending(this.db.manager, 'id', deliveryId, reason);
  }

  /** Fails every pending delivery of the endpoint; the caller holds the endpoint's row lock. */
  async failPendingOfEndpoint(manager: EntityManager, endpointId: string, reason: string): Promise<void> {
    await this.failPending(manager, 'endpoint_id', endpointId, reason);
  }

  /**
   * Up to `limit` pending deliveries after `after` in (created_at, id) order, without locks; those
   * created after `firstAttemptsSince` and never attempted are left out: their first attempt may be under way.
   */
  async pagePending(
    after: DeliveryPosition,
    limit: number,
    firstAttemptsSince: Date,
  ): Promise<Array<PendingDelivery & DeliveryPosition & { tenantId: string }>> {
    const rows: Array<{ id: string; tenant_id: string; next_attempt_at: Date | null; created_at: Date }> =
      await this.db.query(
        `SELECT id, tenant_id, next_attempt_at, created_at FROM notifications.webhook_deliveries
        WHERE status = 'PENDING' AND (created_at, id) > ($1, $2)
          AND NOT (attempt_count = 0 AND created_at > $4)
        ORDER BY created_at, id LIMIT $3`,
        [after.createdAt, after.id, limit, firstAttemptsSince],
      );
    return rows.map((r) => ({
      id: r.id,
      tenantId: r.tenant_id,
      nextAttemptAt: r.next_attempt_at,
      createdAt: r.created_at,
    }));
  }

  /** The tenant's deliveries, newest first, up to `take`. */
  listOfTenant(tenantId: string, filter: DeliveryListFilter, take: number): Promise<WebhookDeliveryEntity[]> {
    const qb = this.db
      .getRepository(WebhookDeliveryEntity)
      .createQueryBuilder('d')
      .where('d.tenant_id = :tenantId', { tenantId });
    if (filter.status) qb.andWhere('d.status = :status', { status: filter.status });
    if (filter.endpointId) qb.andWhere('d.endpoint_id = :endpointId', { endpointId: filter.endpointId });
    if (filter.notificationTypeCode)
      qb.andWhere('d.notification_type_code = :type', { type: filter.notificationTypeCode });
    if (filter.before)
      qb.andWhere('(d.created_at, d.id) < (:at, :id)', { at: filter.before.createdAt, id: filter.before.id });
    return qb.orderBy('d.created_at', 'DESC').addOrderBy('d.id', 'DESC').take(take).getMany();
  }

  /** The tenant's delivery; null for another tenant's. */
  findOfTenant(tenantId: string, deliveryId: string): Promise<WebhookDeliveryEntity | null> {
    return this.db.getRepository(WebhookDeliveryEntity).findOneBy({ id: deliveryId, tenantId });
  }

  /** As findOfTenant, and locks the row (FOR UPDATE) until the transaction ends. */
  lockOfTenant(
    manager: EntityManager,
    tenantId: string,
    deliveryId: string,
  ): Promise<WebhookDeliveryEntity | null> {
    return manager.getRepository(WebhookDeliveryEntity).findOne({
      where: { id: deliveryId, tenantId },
      lock: { mode: 'pessimistic_write' },
    });
  }

  save(manager: EntityManager, delivery: WebhookDeliveryEntity): Promise<WebhookDeliveryEntity> {
    return manager.save(delivery);
  }

  /** Attempts of the delivery, first to last. */
  listAttempts(deliveryId: string): Promise<WebhookDeliveryAttemptEntity[]> {
    return this.db.getRepository(WebhookDeliveryAttemptEntity).find({
      where: { deliveryId },
      order: { attemptNumber: 'ASC' },
    });
  }

  /**
   * Puts the endpoint's failed deliveries created in [since, until) back to pending, due now, with
   * a fresh retry cycle; answers their ids. The caller holds the endpoint's row lock.
   */
  async requeueFailedOfEndpoint(
    manager: EntityManager,
    range: { tenantId: string; endpointId: string; since: Date; until: Date },
  ): Promise<string[]> {
    const result = await manager.query(
      `UPDATE notifications.webhook_deliveries
          SET status = 'PENDING', cycle_attempts = 0, next_attempt_at = now(), updated_at = now()
        WHERE tenant_id = $1 AND endpoint_id = $2 AND status = 'FAILED' AND created_at >= $3 AND created_at < $4
        RETURNING id`,
      [range.tenantId, range.endpointId, range.since, range.until],
    );
    return updatedRows<{ id: string }>(result).map((r) => r.id);
  }

  /**
   * Deletes up to `limit` finished (succeeded or failed) deliveries last changed before `cutoff`,
   * with their attempts, in one statement; rows another session holds are skipped, pending
   * deliveries never go. Answers how many of each went.
   */
  async deleteFinishedBefore(cutoff: Date, limit: number): Promise<{ deliveries: number; attempts: number }> {
    const [row]: Array<{ deliveries: number; attempts: number }> = await this.db.query(
      `WITH doomed AS (
         SELECT id FROM notifications.webhook_deliveries
          WHERE status <> 'PENDING' AND updated_at < $1
          LIMIT $2 FOR UPDATE SKIP LOCKED),
       attempts AS (
         DELETE FROM notifications.webhook_delivery_attempts a USING doomed
          WHERE a.delivery_id = doomed.id
         RETURNING 1),
       deliveries AS (
         -- the foreign key from attempts is checked at the end of the statement, after both deletes
         DELETE FROM notifications.webhook_deliveries d USING doomed
          WHERE d.id = doomed.id
         RETURNING 1)
       SELECT (SELECT count(*)::int FROM deliveries) AS deliveries, (SELECT count(*)::int FROM attempts) AS attempts`,
      [cutoff, limit],
    );
    return row;
  }

  /**
   * The statements of every webhook's way (fan-out, attempt read, success) are long: run outside a
   * transaction, each is a named prepared statement, so a pooled connection parses and plans it
   * once rather than on every run. Inside the caller's transaction, an ordinary query.
   */
  private run<T>(manager: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
    if (manager !== this.db.manager) return manager.query(sql, params);
    return queryPrepared<T>(this.db, sql, params);
  }

  private async failPending(
    manager: EntityManager,
    column: 'id' | 'endpoint_id',
    value: string,
    reason: string,
  ): Promise<void> {
    await manager.query(
      `UPDATE notifications.webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL, last_error = $2, updated_at = now()
        WHERE ${column} = $1 AND status = 'PENDING'`,
      [value, reason.slice(0, DELIVERY_ERROR_LENGTH)],
    );
  }

  /**
   * The attempt row and the delivery's new state together. A delivery someone else finished while
   * it was being sent (the tenant disabling the endpoint) keeps its status; a success clears the
   * endpoint's failure streak and, at most once a second, moves its lastSuccessAt, so concurrent
   * deliveries to one endpoint do not queue behind its row lock. Answers the delivery's status after.
   */
  private async recordAttempt(manager: EntityManager, a: AttemptRecord): Promise<DeliveryStatus | undefined> {
    const [written] = await this.run<{ status: DeliveryStatus }>(
      manager,
      `WITH delivery AS (
         UPDATE notifications.webhook_deliveries
            SET status = CASE WHEN status = 'PENDING' THEN $2::varchar ELSE status END,
                next_attempt_at = CASE WHEN status = 'PENDING' THEN $3::timestamptz END,
                delivered_at = CASE WHEN status = 'PENDING' AND $2::varchar = 'SUCCEEDED' THEN $4::timestamptz ELSE delivered_at END,
                attempt_count = attempt_count + 1, cycle_attempts = cycle_attempts + 1,
                last_attempt_at = $4::timestamptz, last_status_code = $5::int, last_error = $6::varchar, updated_at = now()
          WHERE id = $1
         RETURNING tenant_id, attempt_count, status),
       attempt AS (
         INSERT INTO notifications.webhook_delivery_attempts
           (id, delivery_id, tenant_id, attempt_number, started_at, duration_ms, status_code, outcome, error, response_excerpt)
         SELECT gen_random_uuid(), $1, tenant_id, attempt_count, $7, $8, $5::int, $9::varchar, $6::varchar, $10 FROM delivery),
       endpoint AS (
         UPDATE notifications.webhook_endpoints SET last_success_at = $4::timestamptz, failing_since = NULL
          -- SKIP LOCKED: a success never waits for the endpoint row while holding its delivery row,
          -- so it cannot deadlock with a disable or a failure being recorded (the next success records health)
          WHERE id = (SELECT id FROM notifications.webhook_endpoints WHERE id = $11 FOR NO KEY UPDATE SKIP LOCKED)
            AND $9::varchar = 'SUCCEEDED'
            AND (failing_since IS NOT NULL OR last_success_at IS NULL OR last_success_at < $4::timestamptz - interval '1 second'))
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
        a.endpointId,
      ],
    );
    return written?.status;
  }
}

const hasId = <T extends { id: string | null }>(row: T): row is T & { id: string } => row.id !== null;
