import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Counter, Gauge, Histogram } from 'prom-client';
import { QueueName } from '@fincore/events';
import { MetricsService } from '@fincore/platform';

export type DeliveryOutcome = 'succeeded' | 'retry_scheduled' | 'failed' | 'endpoint_gone';

/** What operators watch: outcomes, attempt durations, queue depth, and how long an event takes to reach a receiver. */
@Injectable()
export class NotifierMetrics {
  readonly deliveries: Counter<'outcome'>;
  readonly attemptDuration: Histogram<'outcome'>;
  readonly eventToDelivery: Histogram;
  readonly fannedOut: Counter<'type'>;
  readonly retentionDeleted: Counter<'table'>;

  constructor(
    metrics: MetricsService,
    @InjectQueue(QueueName.DomainEvents) domainEvents: Queue,
    @InjectQueue(QueueName.WebhookDeliveries) webhookDeliveries: Queue,
  ) {
    const registers = [metrics.registry];
    this.deliveries = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome',
      labelNames: ['outcome'],
      registers,
    });
    this.attemptDuration = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Duration of one webhook HTTP attempt',
      labelNames: ['outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.eventToDelivery = new Histogram({
      name: 'webhook_event_to_delivery_seconds',
      help: 'From the domain event occurring to its webhook being acknowledged by the receiver',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600, 36000],
      registers,
    });
    this.fannedOut = new Counter({
      name: 'webhook_deliveries_created_total',
      help: 'Deliveries created by the fan-out, by notification type',
      labelNames: ['type'],
      registers,
    });
    this.retentionDeleted = new Counter({
      name: 'retention_rows_deleted_total',
      help: 'Rows deleted for being past their retention, by table',
      labelNames: ['table'],
      registers,
    });
    const queues = [domainEvents, webhookDeliveries];
    new Gauge({
      name: 'queue_jobs',
      help: 'Jobs per queue and state (read from Redis at scrape time)',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        for (const queue of queues) {
          const counts = await queue
            .getJobCounts('waiting', 'active', 'delayed', 'failed', 'prioritized')
            .catch(() => undefined);
          for (const [state, count] of Object.entries(counts ?? {}))
            this.set({ queue: queue.name, state }, count);
        }
      },
    });
  }
}
