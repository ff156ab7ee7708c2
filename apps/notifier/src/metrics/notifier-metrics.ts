import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Counter, Gauge, Histogram } from 'prom-client';
import { EVENT_TYPES, OutboxRepository, QueueName } from '@fincore/events';
import { WebhookDeliveryAdminRepository } from '@fincore/notifications';
import { MetricsService } from '@fincore/platform';

const DELIVERY_OUTCOMES = ['succeeded', 'retry_scheduled', 'failed', 'endpoint_gone'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];
/** Why the notifier disabled an endpoint: it answered 410 Gone, or failed for longer than the limit. */
const DISABLE_REASONS = ['gone', 'failing'] as const;
export type DisableReason = (typeof DISABLE_REASONS)[number];

/** What operators watch: outcomes, attempt durations, queue depth, and how long an event takes to reach a receiver. */
@Injectable()
export class NotifierMetrics {
  readonly deliveries: Counter<'outcome'>;
  readonly attemptDuration: Histogram<'outcome'>;
  readonly eventToDelivery: Histogram;
  readonly fannedOut: Counter<'type'>;
  readonly retentionDeleted: Counter<'table'>;
  readonly endpointsDisabled: Counter<'reason'>;
  readonly deliveryJobsRecreated: Counter;

  constructor(
    metrics: MetricsService,
    @InjectQueue(QueueName.DomainEvents) domainEvents: Queue,
    @InjectQueue(QueueName.WebhookDeliveries) webhookDeliveries: Queue,
    outbox: OutboxRepository,
    deliveries: WebhookDeliveryAdminRepository,
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
    this.endpointsDisabled = new Counter({
      name: 'webhook_endpoints_disabled_total',
      help: 'Endpoints the notifier disabled, by reason: gone (410) or failing (no success for too long)',
      labelNames: ['reason'],
      registers,
    });
    this.deliveryJobsRecreated = new Counter({
      name: 'webhook_delivery_jobs_recreated_total',
      help: 'Jobs of pending deliveries the reconciler re-created because the queue had lost them',
      registers,
    });
    // Every series from 0: an alert's increase() or rate() then sees the first event too.
    for (const outcome of DELIVERY_OUTCOMES) this.deliveries.inc({ outcome }, 0);
    for (const reason of DISABLE_REASONS) this.endpointsDisabled.inc({ reason }, 0);
    for (const type of EVENT_TYPES) this.fannedOut.inc({ type }, 0);
    new Gauge({
      name: 'queue_backlog_age_seconds',
      help: 'How long the oldest work waiting for each queue has waited, read from PostgreSQL at scrape time',
      labelNames: ['queue'],
      registers,
      async collect() {
        // From the rows, not the jobs: work whose job Redis lost is backlog all the same.
        const ages = await Promise.all([
          outbox.oldestUnprocessedAgeSeconds(),
          deliveries.oldestOverdueAgeSeconds(),
        ]).catch(() => undefined);
        this.reset();
        if (!ages) return;
        this.set({ queue: QueueName.DomainEvents }, ages[0]);
        this.set({ queue: QueueName.WebhookDeliveries }, ages[1]);
      },
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
