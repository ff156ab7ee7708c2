import { InjectQueue } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { StatementBatch } from '@fincore/database';
import { backlogPriority, QueueName, WebhookDeliveryJob } from '@fincore/events';
import {
  addNewWebhookDeliveries,
  CreatedDelivery,
  enqueueWebhookDeliveries,
  WebhookDeliveryFanOutRepository,
} from '@fincore/notifications';
import { APP_CONFIG, AppConfig, TraceCarrier, traceCarrier } from '@fincore/platform';
import { AttemptFollowUp } from '../delivery/attempt-follow-up';
import { DeliveryService } from '../delivery/delivery.service';
import type { NextRun } from '../delivery/next-run';
import { TenantPriority } from '../fairness/tenant-priority';
import { NotifierMetrics } from '../metrics/notifier-metrics';

/** A bound only: the fan-out's worker handles a few events at a time (DomainEventProcessor's concurrency). */
const MAX_CLAIMS_TOGETHER = 50;

/**
 * For one domain event, one delivery per active endpoint of the tenant that wants the type, if
 * the tenant enabled the type over WEBHOOK before the event occurred; earlier events of its
 * subject not fanned out yet go first. Creating deliveries and marking the event processed commit
 * together. Then the event's first attempts start at once, all of them but those to ordered
 * endpoints, from what the fan-out's statement answered, while fewer than WEBHOOK_CONCURRENCY
 * events have first attempts under way (an event has at most one delivery per endpoint, so the
 * requests in flight stay bounded by the endpoints a tenant may have); otherwise each delivery gets
 * a job at its tenant's priority (its backlog), as do an ordered endpoint's deliveries and first
 * attempts that must wait or retry. A crash mid-attempt leaves the delivery pending without a job:
 * the delivery reconciler gives it one. An event seen again has its pending deliveries enqueued,
 * so a crash before enqueueing loses nothing.
 */
@Injectable()
export class FanOutService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(FanOutService.name);
  /** One entry per event whose first attempts are under way. */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly eventsInFlightLimit: number;
  private readonly webhookTimeoutMs: number;
  private closing = false;
  /** Events that arrive while a claim runs are claimed together in the next statement. */
  private readonly claims: StatementBatch<string, CreatedDelivery[]>;

  constructor(
    private readonly deliveries: WebhookDeliveryFanOutRepository,
    @InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue<WebhookDeliveryJob>,
    private readonly metrics: NotifierMetrics,
    private readonly priority: TenantPriority,
    private readonly delivery: DeliveryService,
    private readonly followUp: AttemptFollowUp,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.eventsInFlightLimit = config.WEBHOOK_CONCURRENCY;
    this.webhookTimeoutMs = config.WEBHOOK_TIMEOUT_MS;
    this.claims = new StatementBatch(
      {
        alone: (eventId) => deliveries.claimEventAndCreateDeliveries(eventId, new Date()),
        together: (eventIds) => deliveries.claimEventsAlone(eventIds, new Date()),
      },
      MAX_CLAIMS_TOGETHER,
    );
  }

  /**
   * Answers how many deliveries it created or queued. `burstPriority`: its `domain-events` job's,
   * from the size of the burst the event came in; the deliveries' jobs sort no earlier than that, so
   * a burst's first deliveries, made before its backlog shows in the count, do not sort level with
   * a quiet tenant's.
   */
  async handle(eventId: string, burstPriority = 1): Promise<number> {
    const created = await this.claims.run(eventId);
    if (created.length) {
      const perType = new Map<string, number>();
      for (const d of created)
        perType.set(d.notificationTypeCode, (perType.get(d.notificationTypeCode) ?? 0) + 1);
      for (const [type, n] of perType) this.metrics.fannedOut.inc({ type }, n);
      const priority = Math.max(burstPriority, await this.priority.of(created[0].tenantId, created.length));
      // An ordered endpoint's delivery runs only through its job, one attempt at a time. Started here
      // without one, it could get a second attempt at once: the delivery before it in the chain,
      // finishing now, wakes it with a job. That attempt may reach the receiver after the next
      // delivery of the chain.
      const ordered = created.filter((d) => d.forAttempt.chain);
      const parallel = created.filter((d) => !d.forAttempt.chain);
      // An event's deliveries go out together, as one job would send them: a job per delivery would
      // cost each its own queue round trips and read. A tenant with more deliveries waiting than the
      // slots hold twice over queues anyway: it may hold half of them, so that another tenant's
      // fresh event never waits for a free one.
      const backlogged = priority > backlogPriority(2 * this.eventsInFlightLimit * created.length);
      const limit = backlogged ? Math.floor(this.eventsInFlightLimit / 2) : this.eventsInFlightLimit;
      const attemptNow = parallel.length > 0 && !this.closing && this.inFlight.size < limit;
      if (attemptNow) this.attemptFirst(parallel, priority, traceCarrier());
      const queued = attemptNow ? ordered : created;
      if (queued.length)
        await addNewWebhookDeliveries(
          this.queue,
          queued.map((d) => ({ deliveryId: d.id, priority })),
        );
      return created.length;
    }
    // Nothing created: nobody subscribes, or the event was seen before (its enqueueing may not have happened).
    // A first attempt another notifier started at fan-out may be under way: left to the reconciler.
    const pending = await this.deliveries.findPendingForEvent(
      eventId,
      new Date(Date.now() - 2 * this.webhookTimeoutMs),
    );
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
        priority: Math.max(burstPriority, priorities.get(d.tenantId)!),
      })),
    );
    return pending.length;
  }

  /** First attempts under way finish (and record) before the app closes; no new one starts. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    await Promise.all(this.inFlight);
  }

  /** Not awaited by the fan-out job: a slow receiver holds up neither it nor other tenants' events. */
  private attemptFirst(
    created: readonly CreatedDelivery[],
    priority: number,
    trace: TraceCarrier | undefined,
  ): void {
    const run: Promise<void> = Promise.allSettled(
      created.map((d) => this.attemptAndFollowUp(d, priority, trace)),
    ).then(() => void this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  private async attemptAndFollowUp(
    created: CreatedDelivery,
    priority: number,
    trace: TraceCarrier | undefined,
  ): Promise<void> {
    let next: NextRun;
    try {
      next = await this.delivery.attemptRead(created.forAttempt, trace);
    } catch (error) {
      // Not recorded (the database away, say): its job tries again with the queue's backoff.
      this.logger.warn(`First attempt of delivery ${created.id} failed: ${(error as Error).message}`);
      next = { kind: 'run_at', at: new Date() };
    }
    await this.followUp.follow(created.id, next, priority);
  }
}
