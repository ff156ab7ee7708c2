import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { updatedRows } from '../sql-results';
import type { DeliveryStatus } from '../statuses';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { DELIVERY_ERROR_LENGTH, type DeliveryPosition, type PendingDelivery } from './webhook-delivery.rows';

export interface DeliveryListFilter {
  status?: DeliveryStatus;
  endpointId?: string;
  notificationTypeCode?: string;
  /** Only the deliveries of this event: the webhook-id a receiver saw. */
  eventId?: string;
  /** Only deliveries created in [since, until); either end may be open. */
  since?: Date;
  until?: Date;
  /** Only deliveries after this position in newest-first order. */
  before?: DeliveryPosition;
}

/** One hour of an endpoint's deliveries, by where they stand now. */
export interface DeliveryHour {
  hour: Date;
  succeeded: number;
  failed: number;
  pending: number;
}

/** An endpoint's deliveries since a moment, by where they stand now, and how long their attempts took. */
export interface EndpointHealthCounts {
  endpointId: string;
  succeeded: number;
  failed: number;
  pending: number;
  /** The 95th percentile of their attempts' durations (an observed one); null without attempts. */
  p95DurationMs: number | null;
}

/**
 * `notifications.webhook_deliveries` and `…_attempts` as the tenant and the operator see them:
 * listing and reading, putting finished deliveries back on their way, ending the pending ones of
 * an endpoint that stops, and the reconciler's pages of pending ones. Methods taking an EntityManager run inside the caller's transaction and keep
 * their row locks until it ends; the others run on their own. Statuses in SQL are the values of
 * DeliveryStatus (the table's CHECK constraint).
 */
const UTC_ORIGIN = `timestamptz '2000-01-01 00:00:00+00'`;

@Injectable()
export class WebhookDeliveryAdminRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The tenant's deliveries, newest first, up to `take`. The time window and the position both
   * bound created_at, so every filter reads a range of the (tenant_id, created_at, id) index; one
   * event's deliveries (a few, one per endpoint) are read through the unique (tenant_id, event_id,
   * endpoint_id).
   */
  listOfTenant(tenantId: string, filter: DeliveryListFilter, take: number): Promise<WebhookDeliveryEntity[]> {
    const qb = this.db
      .getRepository(WebhookDeliveryEntity)
      .createQueryBuilder('d')
      .where('d.tenant_id = :tenantId', { tenantId });
    if (filter.status) qb.andWhere('d.status = :status', { status: filter.status });
    if (filter.endpointId) qb.andWhere('d.endpoint_id = :endpointId', { endpointId: filter.endpointId });
    if (filter.notificationTypeCode)
      qb.andWhere('d.notification_type_code = :type', { type: filter.notificationTypeCode });
    if (filter.eventId) qb.andWhere('d.event_id = :eventId', { eventId: filter.eventId });
    if (filter.since) qb.andWhere('d.created_at >= :since', { since: filter.since });
    if (filter.until) qb.andWhere('d.created_at < :until', { until: filter.until });
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

  /** Attempts of the delivery, first to last. */
  listAttempts(deliveryId: string): Promise<WebhookDeliveryAttemptEntity[]> {
    return this.db.getRepository(WebhookDeliveryAttemptEntity).find({
      where: { deliveryId },
      order: { attemptNumber: 'ASC' },
    });
  }

  /**
   * Locks (FOR NO KEY UPDATE) the endpoint's failed deliveries created in [since, until) until the
   * transaction ends, and answers their ids: what a replay requeues.
   */
  async lockFailedOfEndpoint(
    manager: EntityManager,
    range: { tenantId: string; endpointId: string; since: Date; until: Date },
  ): Promise<string[]> {
    const rows: Array<{ id: string }> = await manager.query(
      `SELECT id FROM notifications.webhook_deliveries
        WHERE tenant_id = $1 AND endpoint_id = $2 AND status = 'FAILED' AND created_at >= $3 AND created_at < $4
        FOR NO KEY UPDATE`,
      [range.tenantId, range.endpointId, range.since, range.until],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Puts the tenant's deliveries back to pending, due now, with a fresh retry cycle: a manual
   * retry and a replay alike. The caller holds their rows, checked to be finished; answers the ids
   * it requeued.
   */
  async requeue(manager: EntityManager, tenantId: string, deliveryIds: readonly string[]): Promise<string[]> {
    const result = await manager.query(
      `UPDATE notifications.webhook_deliveries
          SET status = 'PENDING', cycle_attempts = 0, next_attempt_at = now(), updated_at = now()
        WHERE tenant_id = $1 AND id = ANY ($2::uuid[])
        RETURNING id`,
      [tenantId, deliveryIds],
    );
    return updatedRows<{ id: string }>(result).map((r) => r.id);
  }

  /** Fails every pending delivery of the endpoint; the caller holds the endpoint's row lock. */
  async failPendingOfEndpoint(manager: EntityManager, endpointId: string, reason: string): Promise<void> {
    await manager.query(
      `UPDATE notifications.webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL, last_error = $2, updated_at = now()
        WHERE endpoint_id = $1 AND status = 'PENDING'`,
      [endpointId, reason.slice(0, DELIVERY_ERROR_LENGTH)],
    );
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

  /**
   * Seconds the most overdue delivery that could be attempted now has been due: pending, its time
   * come, its endpoint not paused by a Retry-After (read from the endpoint's row), and on an ordered
   * endpoint the first of its chain. Deliveries waiting for a pause or for an earlier one of their
   * chain are the receiver's backlog, not the notifier's. 0 when none is overdue.
   */
  async oldestOverdueAgeSeconds(): Promise<number> {
    const [row]: Array<{ age: number }> = await this.db.query(
      `SELECT extract(epoch FROM now() - d.next_attempt_at)::float8 AS age
         FROM notifications.webhook_deliveries d
         JOIN notifications.webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.status = 'PENDING' AND d.next_attempt_at <= now()
          AND (e.paused_until IS NULL OR e.paused_until <= now())
          AND NOT EXISTS (
            SELECT 1 FROM notifications.webhook_deliveries b
             WHERE d.sequence IS NOT NULL AND b.status = 'PENDING' AND b.sequence IS NOT NULL
               AND b.endpoint_id = d.endpoint_id AND b.subject_type = d.subject_type
               AND b.subject_id = d.subject_id AND b.sequence < d.sequence)
        ORDER BY d.next_attempt_at LIMIT 1`,
    );
    return row ? Math.max(0, row.age) : 0;
  }

  /**
   * The endpoint's deliveries created in each of the `hours` UTC hours up to the one holding
   * `until`, counted by status, oldest hour first; hours without deliveries count zero. One grouped
   * statement on the endpoint's index, so a week of a busy endpoint is not carried to the caller.
   */
  async countPerHourOfEndpoint(
    tenantId: string,
    endpointId: string,
    until: Date,
    hours: number,
  ): Promise<DeliveryHour[]> {
    const rows: Array<{ hour: Date; succeeded: number; failed: number; pending: number }> =
      await this.db.query(
        // Hours by date_bin from a UTC midnight: per row far cheaper than date_trunc in a time zone.
        `WITH bounds AS (
         SELECT date_bin('1 hour', $3::timestamptz, ${UTC_ORIGIN}) - ($4::int - 1) * interval '1 hour' AS first_hour,
                date_bin('1 hour', $3::timestamptz, ${UTC_ORIGIN}) + interval '1 hour' AS until),
       counted AS (
         SELECT date_bin('1 hour', d.created_at, ${UTC_ORIGIN}) AS hour,
                count(*) FILTER (WHERE d.status = 'SUCCEEDED')::int AS succeeded,
                count(*) FILTER (WHERE d.status = 'FAILED')::int AS failed,
                count(*) FILTER (WHERE d.status = 'PENDING')::int AS pending
           FROM notifications.webhook_deliveries d, bounds b
          WHERE d.tenant_id = $1 AND d.endpoint_id = $2 AND d.created_at >= b.first_hour AND d.created_at < b.until
          GROUP BY 1)
       SELECT h.hour, coalesce(c.succeeded, 0) AS succeeded, coalesce(c.failed, 0) AS failed,
              coalesce(c.pending, 0) AS pending
         FROM bounds b
        CROSS JOIN generate_series(b.first_hour, b.until - interval '1 hour', interval '1 hour') AS h(hour)
         LEFT JOIN counted c ON c.hour = h.hour
        ORDER BY h.hour`,
        [tenantId, endpointId, until, hours],
      );
    return rows.map((r) => ({ hour: r.hour, succeeded: r.succeeded, failed: r.failed, pending: r.pending }));
  }

  /**
   * Every endpoint of the tenant (deleted ones left out, oldest first, as listed) with its
   * deliveries created since `since` counted by status and the p95 of their attempts' durations;
   * zeros and null for one without deliveries. One grouped statement: the window's deliveries are
   * read on the tenant's index (tenant_id, created_at) and their attempts on (delivery_id, …).
   */
  async healthOfTenant(tenantId: string, since: Date): Promise<EndpointHealthCounts[]> {
    const rows: Array<{
      endpoint_id: string;
      succeeded: number;
      failed: number;
      pending: number;
      p95_duration_ms: number | null;
    }> = await this.db.query(
      // Deliveries are counted DISTINCT: the join to their attempts repeats each once per attempt.
      `SELECT e.id AS endpoint_id,
              count(DISTINCT d.id) FILTER (WHERE d.status = 'SUCCEEDED')::int AS succeeded,
              count(DISTINCT d.id) FILTER (WHERE d.status = 'FAILED')::int AS failed,
              count(DISTINCT d.id) FILTER (WHERE d.status = 'PENDING')::int AS pending,
              percentile_disc(0.95) WITHIN GROUP (ORDER BY a.duration_ms) AS p95_duration_ms
         FROM notifications.webhook_endpoints e
         LEFT JOIN notifications.webhook_deliveries d
           ON d.endpoint_id = e.id AND d.tenant_id = $1 AND d.created_at >= $2
         LEFT JOIN notifications.webhook_delivery_attempts a ON a.delivery_id = d.id
        WHERE e.tenant_id = $1 AND e.deleted_at IS NULL
        GROUP BY e.id
        ORDER BY e.created_at, e.id`,
      [tenantId, since],
    );
    return rows.map((r) => ({
      endpointId: r.endpoint_id,
      succeeded: r.succeeded,
      failed: r.failed,
      pending: r.pending,
      p95DurationMs: r.p95_duration_ms,
    }));
  }
}
