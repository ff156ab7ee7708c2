import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { OutboxRepository } from './outbox.repository';
import { priorityPerTenant } from './priority';
import { DomainEventJob, QueueName } from './queues';

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
 * Moves committed outbox rows onto the `domain-events` queue. Rows are claimed with
 * FOR UPDATE SKIP LOCKED so the in-process publisher and every relay never publish one row at
 * the same time; job id = event id, so a second publish after a crash adds no second job.
 */
@Injectable()
export class OutboxPublisher implements OnApplicationShutdown {
  private readonly logger = new Logger(OutboxPublisher.name);
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    @Inject(OutboxRepository) private readonly outbox: OutboxRepository,
    @InjectQueue(QueueName.DomainEvents) private readonly queue: Queue<DomainEventJob>,
  ) {}

  /** Publishes the given events in the background; whatever fails is left for the relay. */
  publishInBackground(eventIds: string[]): void {
    if (!eventIds.length) return;
    const task = this.publish(eventIds).catch((e: Error) =>
      this.logger.warn(`Publishing ${eventIds.length} event(s) failed, the relay will retry: ${e.message}`),
    );
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
  }

  async publish(eventIds: string[]): Promise<number> {
    return this.outbox.publishUnpublished(eventIds, (ids, tenants) => this.enqueue(ids, tenants));
  }

  /** Publishes up to `limit` of the oldest unpublished rows; returns how many it published. */
  async publishPending(limit = 100): Promise<number> {
    return this.outbox.publishOldestUnpublished(limit, (ids, tenants) => this.enqueue(ids, tenants));
  }

  /**
   * Adds the jobs; a no-op for an event whose job is still in the queue. A tenant's burst (a change
   * of thousands of cards, the relay catching up) sorts behind other tenants' lone events; events of
   * unknown tenant count as one tenant.
   */
  async enqueue(eventIds: string[], tenantCodes: string[] = []): Promise<void> {
    if (!eventIds.length) return;
    const priorities = priorityPerTenant(eventIds.map((_, i) => tenantCodes[i] ?? ''));
    await withTimeout(
      this.queue.addBulk(
        eventIds.map((eventId, i) => ({
          name: 'event',
          data: { eventId },
          opts: { jobId: eventId, priority: priorities[i] },
        })),
      ),
      ENQUEUE_TIMEOUT_MS,
      'Enqueueing domain events',
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}
