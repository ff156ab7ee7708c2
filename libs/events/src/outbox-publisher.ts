import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { OutboxRepository } from './outbox.repository';
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
  publishInBackground(eventIds: string[]): void {
    if (!eventIds.length) return;
    const task = this.enqueue(eventIds).catch(async (e: Error) => {
      this.logger.warn(`Publishing ${eventIds.length} event(s) failed, the relay will retry: ${e.message}`);
      await this.outbox
        .unmarkPublished(eventIds)
        .catch((u: Error) =>
          this.logger.warn(`Could not hand the events back to the relay, the reconciler will: ${u.message}`),
        );
    });
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
  }

  /** Publishes those of the given committed events that are still unpublished. */
  async publish(eventIds: string[]): Promise<number> {
    return this.outbox.publishUnpublished(eventIds, (ids) => this.enqueue(ids));
  }

  /** Publishes up to `limit` of the oldest unpublished rows; returns how many it published. */
  async publishPending(limit = 100): Promise<number> {
    return this.outbox.publishOldestUnpublished(limit, (ids) => this.enqueue(ids));
  }

  /** Adds the jobs; a no-op for an event whose job is still in the queue. */
  async enqueue(eventIds: string[]): Promise<void> {
    if (!eventIds.length) return;
    await withTimeout(
      this.queue.addBulk(
        eventIds.map((eventId) => ({ name: 'event', data: { eventId }, opts: { jobId: eventId } })),
      ),
      ENQUEUE_TIMEOUT_MS,
      'Enqueueing domain events',
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}
