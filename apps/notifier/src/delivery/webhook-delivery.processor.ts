import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { QueueName, WebhookDeliveryJob } from '@fincore/events';
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
  }
}
