import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { carrierOf, deserializeTraceContext, endSpan, SpanKind, startSpan } from '@fincore/platform';
import { EventToEnqueue, OutboxRepository } from './outbox.repository';
import { priorityPerTenant } from './priority';
import { DomainEventJob, jobSpanAttributes, QueueName } from './queues';

const ENQUEUE_TIMEOUT_MS = 3000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Moves committed outbox rows onto the `domain-events` queue. A unit of work writes its rows
 * already marked published and enqueues them after commit (unmarking them should that fail);
 * relays claim unpublished rows with FOR UPDATE SKIP LOCKED; so no row is published by both at
 * once. Job id = event id, so a second publish after a crash adds no second job.
 */
@Injectable()
export class OutboxPublisher implements OnApplicationShutdown {
  private readonly logger = new Logger(OutboxPublisher.name);
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    @Inject(OutboxRepository) private readonly outbox: OutboxRepository,
    @InjectQueue(QueueName.DomainEvents) private readonly queue: Queue<DomainEventJob>,
  ) {}

  /**
   * Enqueues events that were written already marked published (UnitOfWork), in the background;
   * should that fail they are unmarked, so the relay publishes them.
   */
  publishInBackground(events: EventToEnqueue[]): void {
    if (!events.length) return;
    const task = this.enqueue(events).catch(async (e: Error) => {
      this.logger.warn(`Publishing ${events.length} event(s) failed, the relay will retry: ${e.message}`);
      await this.outbox
        .unmarkPublished(events.map((event) => event.id))
        .catch((u: Error) =>
          this.logger.warn(`Could not hand the events back to the relay, the reconciler will: ${u.message}`),
        );
    });
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
  }

  /** Publishes those of the given committed events that are still unpublished. */
  async publish(eventIds: string[]): Promise<number> {
    return this.outbox.publishUnpublished(eventIds, (events) => this.enqueue(events));
  }

  /** Publishes up to `limit` of the oldest unpublished rows; returns how many it published. */
  async publishPending(limit = 100): Promise<number> {
    return this.outbox.publishOldestUnpublished(limit, (events) => this.enqueue(events));
  }

  /**
   * Adds the jobs; a no-op for an event whose job is still in the queue. A tenant's burst (a change
   * of thousands of cards, the relay catching up) sorts behind other tenants' lone events. Each job
   * continues its own event's stored trace.
   */
  async enqueue(events: readonly EventToEnqueue[]): Promise<void> {
    if (!events.length) return;
    const priorities = priorityPerTenant(events.map((e) => e.tenantCode));
    const stored = events.map((e) => deserializeTraceContext(e.traceContext));
    // One PRODUCER span per event: events of one batch come from different requests and traces.
    const spans = events.map(({ id }, i) =>
      startSpan(`send ${QueueName.DomainEvents}`, () => ({
        kind: SpanKind.PRODUCER,
        parent: stored[i],
        attributes: {
          ...jobSpanAttributes(QueueName.DomainEvents, 'send', id),
          'fincore.event.id': id,
        },
      })),
    );
    let failure: unknown;
    try {
      const jobs = events.map(({ id: eventId }, i) => {
        // Without a span here (tracing off in this process) the stored context still goes on.
        const trace = carrierOf(spans[i]) ?? stored[i];
        return {
          name: 'event',
          data: trace ? { eventId, trace } : { eventId },
          opts: { jobId: eventId, priority: priorities[i] },
        };
      });
      // A lone event (one change of one request) as one command: a bulk add builds a Redis
      // pipeline, which copies every queue script onto itself first.
      const [lone] = jobs;
      await withTimeout<unknown>(
        jobs.length === 1 ? this.queue.add(lone.name, lone.data, lone.opts) : this.queue.addBulk(jobs),
        ENQUEUE_TIMEOUT_MS,
        'Enqueueing domain events',
      );
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      for (const span of spans) endSpan(span, failure);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}
