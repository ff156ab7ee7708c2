import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import {
  enqueueWebhookDeliveries,
  QueueName,
  WEBHOOK_DELIVERY_JOB_OPTIONS,
  WebhookDeliveryJob,
} from '@fincore/events';
import { NotifierMetrics } from '../shared/notifier-metrics';

export const WEBHOOK_CHANNEL = 'WEBHOOK';

/**
 * DESIGN section 3, step 3: for one domain event, one delivery per active endpoint of the tenant
 * that wants the type, if the tenant enabled the type over WEBHOOK before the event occurred.
 * Creating deliveries and marking the event processed commit together; enqueueing follows, and
 * is repeated for an event seen again, so a crash in between loses nothing.
 */
@Injectable()
export class FanOutService {
  private readonly logger = new Logger(FanOutService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue<WebhookDeliveryJob>,
    private readonly metrics: NotifierMetrics,
  ) {}

  async handle(eventId: string): Promise<number> {
    // One statement: claims the event (marks it processed) and creates its deliveries atomically.
    const created: Array<{ id: string; next_attempt_at: Date; type: string }> = await this.db.query(
      `WITH event AS (
         UPDATE events.outbox SET processed_at = now() WHERE id = $1 AND processed_at IS NULL
         RETURNING id, type, tenant_code, occurred_at)
       INSERT INTO notifications.webhook_deliveries
         (id, tenant_id, endpoint_id, event_id, notification_type_code, event_occurred_at, status, next_attempt_at, created_at, updated_at)
       SELECT gen_random_uuid(), e.tenant_id, e.id, event.id, event.type, event.occurred_at, 'PENDING', $2, $2, $2
         FROM event
         JOIN platform.tenants t ON t.code = event.tenant_code
         JOIN notifications.notification_configs c
           ON c.tenant_id = t.id AND c.notification_type_code = event.type AND c.channel_code = $3
          AND c.enabled AND c.enabled_at <= event.occurred_at
         JOIN notifications.webhook_endpoints e
           ON e.tenant_id = t.id AND e.status = 'ACTIVE' AND e.deleted_at IS NULL AND e.created_at <= event.occurred_at
          AND (e.notification_type_codes IS NULL OR event.type = ANY (e.notification_type_codes))
       ON CONFLICT (tenant_id, event_id, endpoint_id) DO NOTHING
       RETURNING id, next_attempt_at, notification_type_code AS type`,
      [eventId, new Date(), WEBHOOK_CHANNEL],
    );
    if (created.length) {
      this.metrics.fannedOut.inc({ type: created[0].type }, created.length);
      // Fresh ids: no job can exist yet, so one bulk add, without looking each up.
      await this.queue.addBulk(
        created.map((d) => ({
          name: 'deliver',
          data: { deliveryId: d.id },
          opts: { ...WEBHOOK_DELIVERY_JOB_OPTIONS, jobId: d.id },
        })),
      );
      return created.length;
    }
    // Nothing created: nobody subscribes, or the event was seen before (its enqueueing may not have happened).
    const seen: Array<{ id: string | null; next_attempt_at: Date | null }> = await this.db.query(
      `SELECT d.id, d.next_attempt_at FROM events.outbox o
         LEFT JOIN notifications.webhook_deliveries d ON d.event_id = o.id AND d.status = 'PENDING'
        WHERE o.id = $1`,
      [eventId],
    );
    if (!seen.length) {
      this.logger.warn(`Domain event ${eventId} is not in the outbox; nothing to notify`);
      return 0;
    }
    const pending = seen.filter((r): r is { id: string; next_attempt_at: Date | null } => r.id !== null);
    await enqueueWebhookDeliveries(
      this.queue,
      pending.map((r) => ({ deliveryId: r.id, runAt: r.next_attempt_at })),
    );
    return pending.length;
  }
}
