import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import {
  COMMITTED_RANGE_SQL,
  CommittedEvent,
  CommittedEventRow,
  CommittedRangeQuery,
  committedRangeParams,
  toCommittedEvent,
} from './committed-events';
import { DomainEvent, envelopeFromRow, OutboxRow } from './envelope';
import { insertSql, outboxRows } from './outbox-insert';
import { EventSubject } from './subject';

/** The channel the outbox insert trigger notifies on, once per committed row. */
export const OUTBOX_CHANNEL = 'fincore_outbox';

/** A connection that hears of committed outbox rows until closed. */
export interface OutboxListener {
  close(): Promise<void>;
}

/** A published event, as the reconciler pages through them. */
export interface PublishedEventRef extends EventToEnqueue {
  publishedAt: Date;
  /** `published_at` exactly as PostgreSQL holds it (microseconds; a Date keeps only milliseconds). */
  position: string;
}

/** An event to put on the queue: its id, its tenant and its stored trace context (null without tracing). */
export interface EventToEnqueue {
  id: string;
  tenantCode: string;
  traceContext: string | null;
}

/** Publishes claimed events. */
export type PublishClaimed = (events: EventToEnqueue[]) => Promise<void>;

interface ClaimedRow {
  id: string;
  tenant_code: string;
  trace_context: string | null;
}

const toEnqueue = (r: ClaimedRow): EventToEnqueue => ({
  id: r.id,
  tenantCode: r.tenant_code,
  traceContext: r.trace_context,
});

/**
 * The one owner of `events.outbox`. Plain SQL throughout: it works with any DataSource, whatever
 * entities it registered. Methods that take an EntityManager run in the caller's transaction.
 */
@Injectable()
export class OutboxRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Inserts the events with the caller's transaction, so they commit or roll back with the change
   * they describe. One statement whatever their number: a change of many rows would otherwise
   * make one round trip per event while holding its locks. The position each row gets here, after
   * the caller locked the subject's row, orders one subject's events as they commit. `traceContext`
   * is the serialised trace of the change, shared by all its events. `publishing`: the caller
   * enqueues them itself after commit, so they are written already marked published (no relay claims
   * them, and no statement after commit marks them); it calls unmarkPublished should the enqueue fail.
   */
  async insertEvents(
    manager: EntityManager,
    events: readonly DomainEvent[],
    options: { traceContext?: string | null; publishing?: boolean } = {},
  ): Promise<void> {
    if (events.length === 0) return;
    await manager.query(
      insertSql(1, options.publishing ?? false),
      outboxRows(events, options.traceContext ?? null),
    );
  }

  /**
   * Removes the personal data from every stored event of the subject, in the caller's transaction:
   * the fields `personalData` names per event type (see personalDataFields) go, and `erased: true`
   * says so. Deliveries build their bodies from these rows at attempt time, so every later attempt,
   * retry and replay sends the erased data. Answers the ids of all the subject's events.
   */
  async eraseSubjectData(
    manager: EntityManager,
    tenantCode: string,
    subject: EventSubject,
    personalData: Record<string, readonly string[]>,
  ): Promise<string[]> {
    const [rows]: [Array<{ id: string }>, number] = await manager.query(
      `UPDATE events.outbox
          SET data = CASE WHEN $4::jsonb ? type
                          THEN (data - ARRAY(SELECT jsonb_array_elements_text($4::jsonb -> type))) || '{"erased": true}'::jsonb
                          ELSE data END
        WHERE tenant_code = $1 AND subject_type = $2 AND subject_id = $3
        RETURNING id`,
      [tenantCode, subject.type, subject.id, JSON.stringify(personalData)],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Hands marked-published rows back to the relay (their enqueue failed). Should this fail too,
   * the reconciler enqueues them after its grace period, as published but unprocessed.
   */
  async unmarkPublished(eventIds: string[]): Promise<void> {
    await this.db.query(
      `UPDATE events.outbox SET published_at = NULL, publish_attempts = publish_attempts - 1
        WHERE id = ANY($1::uuid[]) AND published_at IS NOT NULL`,
      [eventIds],
    );
  }

  /**
   * Marks those of the given events that are unpublished as published, in one autocommitted
   * statement (a row a relay holds is waited for, then found published), hands them to `publish`,
   * and unmarks them should it fail, so the relay publishes them. Returns how many it published.
   * Should the process die between the mark and `publish`, the relay's reconciler enqueues the
   * published but unprocessed event after its grace period.
   */
  async publishUnpublished(eventIds: string[], publish: PublishClaimed): Promise<number> {
    // An UPDATE ... RETURNING answers [rows, affected] through TypeORM's query().
    const [rows]: [ClaimedRow[], number] = await this.db.query(
      `UPDATE events.outbox SET published_at = now(), publish_attempts = publish_attempts + 1
        WHERE id = ANY($1::uuid[]) AND published_at IS NULL RETURNING id, tenant_code, trace_context`,
      [eventIds],
    );
    if (!rows.length) return 0;
    try {
      await publish(rows.map(toEnqueue));
    } catch (error) {
      await this.unmarkPublished(rows.map((r) => r.id)).catch(() => undefined);
      throw error;
    }
    return rows.length;
  }

  /**
   * Claims up to `limit` of the oldest unpublished rows not claimed by anyone else (FOR UPDATE SKIP
   * LOCKED), hands them to `publish` while holding the row locks, then marks them published, all in
   * one transaction. Returns how many it published.
   */
  publishOldestUnpublished(limit: number, publish: PublishClaimed): Promise<number> {
    return this.claimAndMarkPublished(
      `SELECT id, tenant_code, trace_context FROM events.outbox WHERE published_at IS NULL
        ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
      publish,
    );
  }

  private claimAndMarkPublished(
    claimSql: string,
    params: unknown[],
    publish: PublishClaimed,
  ): Promise<number> {
    return this.db.transaction(async (manager) => {
      const rows: ClaimedRow[] = await manager.query(claimSql, params);
      if (!rows.length) return 0;
      const ids = rows.map((r) => r.id);
      await publish(rows.map(toEnqueue));
      await manager.query(
        `UPDATE events.outbox SET published_at = now(), publish_attempts = publish_attempts + 1 WHERE id = ANY($1::uuid[])`,
        [ids],
      );
      return ids.length;
    });
  }

  /**
   * Seconds since the oldest event published and not yet processed was published (the backlog of
   * the fan-out, however many of its jobs Redis still holds); 0 when there is none.
   */
  async oldestUnprocessedAgeSeconds(): Promise<number> {
    const [row]: Array<{ age: number }> = await this.db.query(
      `SELECT extract(epoch FROM now() - published_at)::float8 AS age FROM events.outbox
        WHERE published_at IS NOT NULL AND processed_at IS NULL ORDER BY published_at LIMIT 1`,
    );
    return row ? Math.max(0, row.age) : 0;
  }

  /**
   * One page of the events published more than `graceSeconds` ago that no consumer has processed,
   * oldest first; `after` is the last row of the previous page (keyset, so a stuck head never hides
   * the rows behind it).
   */
  async pagePublishedUnprocessed(
    graceSeconds: number,
    limit: number,
    after?: PublishedEventRef,
  ): Promise<PublishedEventRef[]> {
    const rows: Array<{
      id: string;
      tenant_code: string;
      published_at: Date;
      position: string;
      trace_context: string | null;
    }> = await this.db.query(
      `SELECT id, tenant_code, published_at, published_at::text AS position, trace_context FROM events.outbox
        WHERE published_at IS NOT NULL AND processed_at IS NULL
          AND published_at < now() - make_interval(secs => $1)
          AND ($3::timestamptz IS NULL OR (published_at, id) > ($3::timestamptz, $4::uuid))
        ORDER BY published_at, id LIMIT $2`,
      [graceSeconds, limit, after?.position ?? null, after?.id ?? null],
    );
    return rows.map((r) => ({
      id: r.id,
      tenantCode: r.tenant_code,
      publishedAt: r.published_at,
      position: r.position,
      traceContext: r.trace_context,
    }));
  }

  /** One page of a tenant's events in commit order (see COMMITTED_RANGE_SQL): one index range read. */
  async pageCommitted(query: CommittedRangeQuery): Promise<CommittedEvent[]> {
    const rows: CommittedEventRow[] = await this.db.query(COMMITTED_RANGE_SQL, committedRangeParams(query));
    return rows.map(toCommittedEvent);
  }

  /** The event as subscribers receive it; undefined when the outbox does not hold it. */
  async findEvent(eventId: string): Promise<DomainEvent | undefined> {
    const rows: OutboxRow[] = await this.db.query(
      `SELECT id, type, tenant_code, occurred_at, correlation_id, data FROM events.outbox WHERE id = $1`,
      [eventId],
    );
    return rows[0] && envelopeFromRow(rows[0]);
  }

  /** Marks the event handled by its consumer; false when it was handled before or does not exist. */
  async markProcessed(eventId: string): Promise<boolean> {
    // An UPDATE answers [rows, affected] through TypeORM's query().
    const [, affected]: [unknown[], number] = await this.db.query(
      `UPDATE events.outbox SET processed_at = now() WHERE id = $1 AND processed_at IS NULL`,
      [eventId],
    );
    return affected > 0;
  }

  /**
   * Opens a connection of its own (LISTEN needs one outside the pool) that calls `onInsert` for
   * every outbox row committed unpublished. `onLost` is called once when the connection fails later on; the
   * caller decides when to listen again. Rejects when it cannot connect.
   */
  async listenForInserts(
    databaseUrl: string,
    handlers: { onInsert(): void; onLost(error: Error): void },
  ): Promise<OutboxListener> {
    const client = new Client({ connectionString: databaseUrl });
    client.on('notification', () => handlers.onInsert());
    client.on('error', (error) => {
      void client.end().catch(() => undefined);
      handlers.onLost(error);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return { close: () => client.end().catch(() => undefined) };
  }
}
