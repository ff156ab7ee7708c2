import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { QueueName, WebhookDeliveryJob } from '@fincore/events';
import { APP_CONFIG, AppConfig, asTraceCarrier } from '@fincore/platform';
import { AttemptFollowUp } from './attempt-follow-up';
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
    private readonly followUp: AttemptFollowUp,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.WEBHOOK_CONCURRENCY;
  }

  async process(job: Job<WebhookDeliveryJob>, token?: string): Promise<void> {
    const { deliveryId, trace } = job.data;
    const next = await this.deliveries.attempt(deliveryId, asTraceCarrier(trace));
    await this.followUp.follow(deliveryId, next, job.opts.priority ?? 1, async (at) => {
      await job.moveToDelayed(at.getTime(), token);
      throw new DelayedError();
    });
  }
}
