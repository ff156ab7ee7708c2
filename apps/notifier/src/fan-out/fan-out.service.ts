import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { QueueName, WebhookDeliveryJob } from '@fincore/events';
import {
  addNewWebhookDeliveries,
  enqueueWebhookDeliveries,
  WebhookDeliveryRepository,
} from '@fincore/notifications';
import { TenantPriority } from '../fairness/tenant-priority';
import { NotifierMetrics } from '../metrics/notifier-metrics';

/**
 * For one domain event, one delivery per active endpoint of the tenant that wants the type, if
 * the tenant enabled the type over WEBHOOK before the event occurred; earlier events of its
 * subject not fanned out yet go first. Jobs get their tenant's priority (its backlog). Creating deliveries and
 * marking the event processed commit together; enqueueing follows, and is repeated for an event
 * seen again, so a crash in between loses nothing.
 */
@Injectable()
export class FanOutService {
  private readonly logger = new Logger(FanOutService.name);

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    @InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue<WebhookDeliveryJob>,
    private readonly metrics: NotifierMetrics,
    private readonly priority: TenantPriority,
  ) {}

  /** Answers how many deliveries it queued. */
  async handle(eventId: string): Promise<number> {
    const created = await this.deliveries.claimEventAndCreateDeliveries(eventId, new Date());
    if (created.length) {
      const perType = new Map<string, number>();
      for (const d of created)
        perType.set(d.notificationTypeCode, (perType.get(d.notificationTypeCode) ?? 0) + 1);
      for (const [type, n] of perType) this.metrics.fannedOut.inc({ type }, n);
      const priority = await this.priority.of(created[0].tenantId);
      await addNewWebhookDeliveries(
        this.queue,
        created.map((d) => ({ deliveryId: d.id, priority })),
      );
      return created.length;
    }
    // Nothing created: nobody subscribes, or the event was seen before (its enqueueing may not have happened).
    const pending = await this.deliveries.findPendingForEvent(eventId);
    if (!pending) {
      this.logger.warn(`Domain event ${eventId} is not in the outbox; nothing to notify`);
      return 0;
    }
    const priorities = await this.priority.ofAll(pending.map((d) => d.tenantId));
    await enqueueWebhookDeliveries(
      this.queue,
      pending.map((d) => ({
        deliveryId: d.id,
        runAt: d.nextAttemptAt,
        priority: priorities.get(d.tenantId)!,
      })),
    );
    return pending.length;
  }
}
