import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { DomainEventJob, jobSpanAttributes, QueueName } from '@fincore/events';
import { asTraceCarrier, inSpan, SpanKind } from '@fincore/platform';
import { FanOutService } from './fan-out.service';

/** Consumes `domain-events`; BullMQ retries a failure with the queue's backoff, the outbox reconciler covers a lost job. */
@Processor(QueueName.DomainEvents, { concurrency: 8 })
export class DomainEventProcessor extends WorkerHost {
  constructor(private readonly fanOut: FanOutService) {
    super();
  }

  /** In a CONSUMER span that continues the event's trace; the delivery jobs it queues carry that span on. */
  async process(job: Job<DomainEventJob>): Promise<void> {
    const { eventId } = job.data;
    await inSpan(
      `process ${QueueName.DomainEvents}`,
      () => ({
        kind: SpanKind.CONSUMER,
        parent: asTraceCarrier(job.data.trace),
        attributes: {
          ...jobSpanAttributes(QueueName.DomainEvents, 'process', eventId),
          'messaging.bullmq.attempts_made': job.attemptsMade,
          'fincore.event.id': eventId,
        },
      }),
      async (span) =>
        span.setAttribute('fincore.deliveries.queued', await this.fanOut.handle(eventId, job.priority)),
    );
  }
}
