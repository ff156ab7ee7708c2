import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, Job, Queue } from 'bullmq';
import { QueueName, WebhookDeliveryJob } from '@fincore/events';
import { enqueueWebhookDeliveries } from '@fincore/notifications';
import { APP_CONFIG, AppConfig, asTraceCarrier } from '@fincore/platform';
import { DeliveryService } from './delivery.service';

/**
 * Consumes `webhook-deliveries`. A retry keeps the same job (id = delivery id): the job is moved
 * back to delayed until the next attempt time the delivery row holds.
 */
@Processor(QueueName.WebhookDeliveries)
export class WebhookDeliveryProcessor extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly deliveries: DeliveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue<WebhookDeliveryJob>,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.WEBHOOK_CONCURRENCY;
  }

  async process(job: Job<WebhookDeliveryJob>, token?: string): Promise<void> {
    const outcome = await this.deliveries.attempt(job.data.deliveryId, asTraceCarrier(job.data.trace));
    if (outcome.kind === 'run_at') {
      await job.moveToDelayed(outcome.at.getTime(), token);
      throw new DelayedError();
    }
    // The next delivery of an ordered chain sleeps until it looks again; wake it now. A wake-up lost
    // (a crash, Redis away) only makes it look again later: its own job's time is the net, so this
    // job, already recorded, does not fail for it.
    if (outcome.wake) {
      await enqueueWebhookDeliveries(this.queue, [
        { deliveryId: outcome.wake.id, runAt: outcome.wake.nextAttemptAt, priority: job.opts.priority ?? 1 },
      ]).catch(() => undefined);
    }
  }
}
