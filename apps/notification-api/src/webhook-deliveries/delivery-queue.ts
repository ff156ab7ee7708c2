import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { backlogPriority, QueueName, WebhookDeliveryJob } from '@fincore/events';
import { enqueueWebhookDeliveries } from '@fincore/notifications';

/** A frozen or unreachable Redis must not hold the request: BullMQ itself waits for it forever. */
const ENQUEUE_TIMEOUT_MS = 3000;

/** Queues deliveries the API put back to pending; if Redis is away, the notifier's reconciler picks them up. */
@Injectable()
export class DeliveryQueue {
  private readonly logger = new Logger(DeliveryQueue.name);

  constructor(@InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue<WebhookDeliveryJob>) {}

  /** A replay of many sorts behind other tenants' fresh events, as a backlog of that size would. */
  async enqueueNow(deliveryIds: string[]): Promise<void> {
    const priority = backlogPriority(deliveryIds.length);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        enqueueWebhookDeliveries(
          this.queue,
          deliveryIds.map((deliveryId) => ({ deliveryId, priority })),
        ),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${ENQUEUE_TIMEOUT_MS} ms`)),
            ENQUEUE_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      this.logger.warn(
        `Could not enqueue ${deliveryIds.length} delivery(ies); the reconciler will: ${(error as Error).message}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }
}
