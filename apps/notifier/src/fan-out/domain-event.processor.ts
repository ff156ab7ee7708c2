import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { DomainEventJob, QueueName } from '@fincore/events';
import { FanOutService } from './fan-out.service';

/** Consumes `domain-events`; BullMQ retries a failure with the queue's backoff, the outbox reconciler covers a lost job. */
@Processor(QueueName.DomainEvents, { concurrency: 8 })
export class DomainEventProcessor extends WorkerHost {
  constructor(private readonly fanOut: FanOutService) {
    super();
  }

  async process(job: Job<DomainEventJob>): Promise<void> {
    await this.fanOut.handle(job.data.eventId);
  }
}
