import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { queryPrepared } from '@fincore/database';
import { ENDPOINT_SUBJECT } from '@fincore/events';
import { ChannelCode } from '../channels';
import { EventFilter, filterAccepts } from '../webhook-endpoints/event-filter';
import { EndpointOrdering } from '../statuses';
import {
  CreatedDelivery,
  DeliveryForAttemptRow,
  ENDPOINT_FOR_ATTEMPT,
  PendingDelivery,
  toDeliveryForAttempt,
} from './webhook-delivery.rows';

/** Outbox row `o` is an earlier event than `x` about the same subject: it must be fanned out first. */
const EARLIER_OF_SUBJECT = `(o.tenant_code = x.tenant_code AND o.subject_type = x.subject_type
  AND o.subject_id = x.subject_id AND o.position < x.position)`;

/**
 * Creates `notifications.webhook_deliveries` (and numbers them in
 * `notifications.webhook_subject_sequences`) from domain events, and answers what is left to
 * queue. The fan-out statement is one of the context's named cross-context statements: to stay
 * one round trip per event, it claims the event in `events.outbox` (marks it processed) and reads
 * the tenant from `platform.tenants` while it inserts the deliveries; findPendingForEvent reads the
 * outbox row to tell an unknown event from one nobody wants, and its tenant's id to find the
 * event's deliveries by the unique (tenant_id, event_id, endpoint_id). Statuses in SQL are the
 * values of DeliveryStatus (the table's CHECK constraint).
 */
@Injectable()
export class WebhookDeliveryFanOutRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * One pending delivery, due now, of an event to the one endpoint it was asked for (a test event),
   * in the caller's transaction with the event; no subject chain, so an ordered endpoint's other
   * deliveries neither wait for it nor it for them. Answers its id.
   */
  async createForEndpoint(
    manager: EntityManager,
    delivery: { tenantId: string; endpointId: string; eventId: string; type: string; occurredAt: Date },
  ): Promise<string> {
    const [row]: Array<{ id: string }> = await manager.query(
      `INSERT INTO notifications.webhook_deliveries
         (id, tenant_id, endpoint_id, event_id, notification_type_code, event_occurred_at, status, next_attempt_at,
          created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, 'PENDING', now(), now(), now())
       RETURNING id`,
      [delivery.tenantId, delivery.endpointId, delivery.eventId, delivery.type, delivery.occurredAt],
    );
    return row.id;
  }

  /**
   * Fans out the event and, first, every earlier event of its subject not fanned out yet, oldest
   * first: each is marked processed and gets one pending delivery per active endpoint of its tenant
   * that wants its type, if the tenant enabled the type over WEBHOOK before the event occurred.
   * The subject's unprocessed events are locked in position order, so two fan-outs of one subject
   * run one after the other and the sequences of ordered endpoints follow commit order. All in one
   * transaction; an event already processed creates nothing. An endpoint with a payload filter gets
   * a delivery only when the event passes it: a tenant with such endpoints takes the locked way,
   * where each event's filters are evaluated before its deliveries are created.
   */
  async claimEventAndCreateDeliveries(eventId: string, now: Date): Promise<CreatedDelivery[]> {
    // Almost always the event is the only one of its subject not fanned out: one statement on its
    // own, instead of a transaction of four round trips, claims it and creates its deliveries.
    const alone = (await this.fanOutClaimed(this.db.manager, [eventId], now, 'alone')).get(eventId);
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
      for (const event of events) {
        const accepting = await this.filteredEndpointsAccepting(manager, event.id);
        const claimed = await this.fanOutClaimed(manager, [event.id], now, 'locked', accepting);
        created.push(...(claimed.get(event.id) ?? []));
      }
      return created;
    });
  }

  /**
   * Several events fanned out in one statement, each only if it is alone in its subject (as the
   * first try of claimEventAndCreateDeliveries): per event, in order, its deliveries, or undefined
   * when it was not claimed (an earlier event of its subject waits, its tenant filters, or it was
   * claimed before), for claimEventAndCreateDeliveries to handle.
   */
  async claimEventsAlone(
    eventIds: readonly string[],
    now: Date,
  ): Promise<Array<CreatedDelivery[] | undefined>> {
    // Ids in one order: two statements claiming the same events lock their rows in the same order.
    const claimed = await this.fanOutClaimed(this.db.manager, [...eventIds].sort(), now, 'alone');
    return eventIds.map((id) => claimed.get(id));
  }

  /**
   * The tenant's endpoints with a payload filter that the event passes: each filter is evaluated
   * here, once per event, so an event filtered out creates no delivery.
   */
  private async filteredEndpointsAccepting(manager: EntityManager, eventId: string): Promise<string[]> {
    const rows: Array<{
      id: string;
      filter: EventFilter;
      type: string;
      subject_type: string | null;
      subject_id: string | null;
      data: unknown;
    }> = await manager.query(
      `SELECT e.id, e.filter, x.type, x.subject_type, x.subject_id, x.data
         FROM events.outbox x
         JOIN platform.tenants t ON t.code = x.tenant_code
         JOIN notifications.webhook_endpoints e
           ON e.tenant_id = t.id AND e.filter IS NOT NULL AND e.status = 'ACTIVE' AND e.deleted_at IS NULL
        WHERE x.id = $1`,
      [eventId],
    );
    return rows
      .filter((r) =>
        filterAccepts(r.filter, {
          type: r.type,
          subject: r.subject_type && r.subject_id ? { type: r.subject_type, id: r.subject_id } : null,
          data: r.data,
        }),
      )
      .map((r) => r.id);
  }

  /**
   * The pending deliveries of an event; undefined when the event is not in the outbox. Those
   * created after `firstAttemptsSince` and never attempted are left out: their first attempt may be
   * under way.
   */
  async findPendingForEvent(
    eventId: string,
    firstAttemptsSince: Date,
  ): Promise<Array<PendingDelivery & { tenantId: string }> | undefined> {
    const rows: Array<{ id: string | null; tenant_id: string; next_attempt_at: Date | null }> =
      await this.db.query(
        `SELECT d.id, d.tenant_id, d.next_attempt_at FROM events.outbox o
           LEFT JOIN platform.tenants t ON t.code = o.tenant_code
           LEFT JOIN notifications.webhook_deliveries d ON d.tenant_id = t.id AND d.event_id = o.id AND d.status = 'PENDING'
                 AND NOT (d.attempt_count = 0 AND d.created_at > $2)
          WHERE o.id = $1`,
        [eventId, firstAttemptsSince],
      );
    if (!rows.length) return undefined;
    return rows
      .filter((r): r is { id: string; tenant_id: string; next_attempt_at: Date | null } => r.id !== null)
      .map((r) => ({ id: r.id, tenantId: r.tenant_id, nextAttemptAt: r.next_attempt_at }));
  }

  /**
   * Count of the tenant's pending deliveries: its backlog. Counted once per tenant per second on the
   * fan-out's path, so once per event for tenants quieter than that: prepared, a pooled connection
   * plans it once.
   */
  async countPendingOfTenant(tenantId: string): Promise<number> {
    const [row] = await queryPrepared<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM notifications.webhook_deliveries WHERE tenant_id = $1 AND status = 'PENDING'`,
      [tenantId],
    );
    return row.n;
  }

  /**
   * Events marked processed and their deliveries created: per claimed event, its deliveries (none
   * when nobody wants it); an event not claimed is missing. 'locked': the caller holds the events
   * (and their subjects' earlier ones) locked. 'alone': each claimed only while no earlier event of
   * its subject waits to be fanned out, which would have to go first; of two events of one subject
   * in the statement, only the earlier can be claimed.
   */
  private async fanOutClaimed(
    manager: EntityManager,
    eventIds: readonly string[],
    now: Date,
    claim: 'locked' | 'alone',
    filteredAccepting: readonly string[] = [],
  ): Promise<Map<string, CreatedDelivery[]>> {
    const rows = await this.run<DeliveryForAttemptRow & { id: string | null; claimed_event_id: string }>(
      manager,
      `WITH event AS (
         UPDATE events.outbox x SET processed_at = now() WHERE x.id = ANY ($1::uuid[]) AND x.processed_at IS NULL
         ${
           claim === 'alone'
             ? // OFFSET 0 keeps the check a lookup by the subject's key per event: pulled up into a join,
               // the planner may scan every event not fanned out yet, which is the backlog.
               `AND NOT EXISTS (SELECT 1 FROM events.outbox o WHERE o.processed_at IS NULL AND ${EARLIER_OF_SUBJECT} OFFSET 0)
         -- a tenant with filtered endpoints has its filters evaluated first, the locked way
         AND NOT EXISTS (SELECT 1 FROM platform.tenants ft JOIN notifications.webhook_endpoints fe ON fe.tenant_id = ft.id
                          WHERE ft.code = x.tenant_code AND fe.filter IS NOT NULL AND fe.status = 'ACTIVE'
                            AND fe.deleted_at IS NULL)`
             : ''
         }
         RETURNING id, type, tenant_code, occurred_at, subject_type, subject_id, correlation_id, data, trace_context),
       target AS (
         SELECT event.id AS event_id, e.tenant_id, e.id AS endpoint_id, e.ordering
           FROM event
           JOIN platform.tenants t ON t.code = event.tenant_code
           JOIN notifications.notification_configs c
             ON c.tenant_id = t.id AND c.notification_type_code = event.type AND c.channel_code = $3
            AND c.enabled AND c.enabled_at <= event.occurred_at
           -- receivesDeliveries, in SQL
           JOIN notifications.webhook_endpoints e
             ON e.tenant_id = t.id AND e.status = 'ACTIVE' AND e.deleted_at IS NULL AND e.created_at <= event.occurred_at
            AND (e.notification_type_codes IS NULL OR event.type = ANY (e.notification_type_codes))
            -- an endpoint is never told about itself (an operational event's subject is its endpoint)
            AND NOT (event.subject_type = '${ENDPOINT_SUBJECT}' AND event.subject_id = e.id::text)
            -- a filtered endpoint only when the event passed its filter
            AND (e.filter IS NULL OR e.id = ANY ($5::uuid[]))),
       -- an ordered endpoint numbers its deliveries per subject: 1, 2, 3… in the order of fan-out
       sequenced AS (
         INSERT INTO notifications.webhook_subject_sequences AS s (endpoint_id, subject_type, subject_id, last_sequence)
         SELECT target.endpoint_id, event.subject_type, event.subject_id, 1
           FROM target JOIN event ON event.id = target.event_id
          WHERE target.ordering = $4 AND event.subject_id IS NOT NULL
         ON CONFLICT (endpoint_id, subject_type, subject_id) DO UPDATE SET last_sequence = s.last_sequence + 1
         RETURNING endpoint_id, subject_type, subject_id, last_sequence),
       -- Every join below pairs a delivery with one of the statement's few events, or looks a row up by
       -- its key: joining deliveries with deliveries (target, sequenced, created) would cost the square
       -- of an event's endpoints times the events claimed together.
       created AS (
         INSERT INTO notifications.webhook_deliveries
           (id, tenant_id, endpoint_id, event_id, notification_type_code, event_occurred_at, status, next_attempt_at,
            created_at, updated_at, subject_type, subject_id, sequence)
         SELECT gen_random_uuid(), target.tenant_id, target.endpoint_id, event.id, event.type, event.occurred_at,
                'PENDING'::varchar, $2::timestamptz, $2::timestamptz, $2::timestamptz, event.subject_type, event.subject_id,
                NULL::bigint
           FROM target JOIN event ON event.id = target.event_id
          WHERE NOT (target.ordering = $4 AND event.subject_id IS NOT NULL)
         UNION ALL
         -- no two events of one tenant claimed together share a subject; two tenants' may
         SELECT gen_random_uuid(), e.tenant_id, s.endpoint_id, event.id, event.type, event.occurred_at,
                'PENDING', $2, $2, $2, event.subject_type, event.subject_id, s.last_sequence
           FROM sequenced s
           JOIN notifications.webhook_endpoints e ON e.id = s.endpoint_id
           JOIN platform.tenants t ON t.id = e.tenant_id
           JOIN event ON event.tenant_code = t.code
            AND event.subject_type = s.subject_type AND event.subject_id = s.subject_id
         ON CONFLICT (tenant_id, event_id, endpoint_id) DO NOTHING
         RETURNING id, tenant_id, endpoint_id, event_id, status, next_attempt_at, event_occurred_at,
                   subject_type, subject_id, sequence)
       -- with what the first attempt needs; one row without id says the event was claimed but nobody wants it
       SELECT event.id AS claimed_event_id, d.*, ${ENDPOINT_FOR_ATTEMPT},
              event.type, event.tenant_code, event.occurred_at, event.correlation_id, event.data, event.trace_context
         FROM event
         LEFT JOIN created d ON d.event_id = event.id
         LEFT JOIN notifications.webhook_endpoints e ON e.id = d.endpoint_id`,
      [eventIds, now, ChannelCode.Webhook, EndpointOrdering.Subject, filteredAccepting],
    );
    const claimed = new Map<string, CreatedDelivery[]>();
    for (const r of rows) {
      const created = claimed.get(r.claimed_event_id) ?? [];
      claimed.set(r.claimed_event_id, created);
      if (hasId(r))
        created.push({
          id: r.id,
          tenantId: r.tenant_id,
          nextAttemptAt: r.next_attempt_at,
          notificationTypeCode: r.type!,
          forAttempt: toDeliveryForAttempt(r),
        });
    }
    return claimed;
  }

  /**
   * The fan-out statement is long: run outside a transaction, it is a named prepared statement, so
   * a pooled connection parses and plans it once rather than on every event. Inside the
   * transaction of a subject's earlier events, an ordinary query.
   */
  private run<T>(manager: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
    if (manager !== this.db.manager) return manager.query(sql, params);
    return queryPrepared<T>(this.db, sql, params);
  }
}

const hasId = <T extends { id: string | null }>(row: T): row is T & { id: string } => row.id !== null;
