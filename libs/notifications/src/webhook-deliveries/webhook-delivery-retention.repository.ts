import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * Deletes what is past retention: finished deliveries with their attempts, then the outbox events
 * they no longer need. Deleting events is one of the context's named cross-context statements: an
 * event stays in `events.outbox` while a delivery refers to it, which only this context knows, and
 * the check and the delete are one statement so a batch fills with events that may go. Statuses in
 * SQL are the values of DeliveryStatus (the table's CHECK constraint).
 */
@Injectable()
export class WebhookDeliveryRetentionRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

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
   * Deletes up to `limit` outbox events processed before `cutoff`, skipping rows another session
   * holds. An event a webhook delivery still refers to stays: a delivery reads its payload from
   * there, and a finished one may be retried or replayed until deleteFinishedBefore removes it.
   * Unprocessed events never go. The check reads the event's tenant id from `platform.tenants`.
   */
  async deleteProcessedEventsBefore(cutoff: Date, limit: number): Promise<number> {
    const [{ n }]: Array<{ n: number }> = await this.db.query(
      `WITH gone AS (
         DELETE FROM events.outbox
          WHERE ctid IN (SELECT o.ctid FROM events.outbox o
                          WHERE o.processed_at IS NOT NULL AND o.processed_at < $1
                            -- by tenant and event: the unique key's leading columns; OFFSET 0 keeps it a
                            -- lookup per event rather than a hash of every delivery
                            AND NOT EXISTS (SELECT 1 FROM notifications.webhook_deliveries d
                                              JOIN platform.tenants t ON t.id = d.tenant_id
                                             WHERE t.code = o.tenant_code AND d.event_id = o.id OFFSET 0)
                          LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [cutoff, limit],
    );
    return n;
  }
}
