import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { QueueName, WebhookDeliveryJob } from '@fincore/events';
import { enqueueWebhookDeliveries } from '@fincore/notifications';

/** Queues deliveries the API put back to pending; if Redis is away, the notifier's reconciler picks them up. */
@Injectable()
export class DeliveryQueue {
  private readonly logger = new Logger(DeliveryQueue.name);

  constructor(@InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue<WebhookDeliveryJob>) {}

  async enqueueNow(deliveryIds: string[]): Promise<void> {
    try {
      await enqueueWebhookDeliveries(
        this.queue,
        deliveryIds.map((deliveryId) => ({ deliveryId })),
      );
    } catch (error) {
      this.logger.warn(
        `Could not enqueue ${deliveryIds.length} delivery(ies); the reconciler will: ${(error as Error).message}`,
      );
    }
  }
}
