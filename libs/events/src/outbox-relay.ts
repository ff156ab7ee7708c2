import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Counter, Gauge } from 'prom-client';
import { APP_CONFIG, AppConfig, MetricsService } from '@fincore/platform';
import { mapInBatches } from './batches';
import { OutboxPublisher } from './outbox-publisher';
import { OutboxListener, OutboxRepository, PublishedEventRef } from './outbox.repository';
import { DomainEventJob, QueueName } from './queues';

const BATCH = 200;
/**
 * A NOTIFY arrives for every row committed unpublished (the APIs insert theirs already published,
 * which notifies nobody). Waiting this long before draining folds a burst of notifications into one
 * drain, instead of one claim query per event per process.
 */
const NOTIFY_SETTLE_MS = 250;
/** Events checked against the queue per round trip while the reconciler pages through them. */
const RECONCILE_PAGE = 1000;

/**
 * Publishes whatever a crash left behind: woken by LISTEN/NOTIFY on every committed outbox row,
 * with a slow poll as a net. The same loop re-enqueues published events whose jobs Redis lost.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private listener?: OutboxListener;
  private pollTimer?: NodeJS.Timeout;
  private reconcileTimer?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private settleTimer?: NodeJS.Timeout;
  private drainAgain = false;
  private stopped = false;
  private readonly reenqueued: Counter;
  private readonly oldestUnprocessedAge: Gauge;

  constructor(
    @Inject(OutboxPublisher) private readonly publisher: OutboxPublisher,
    @Inject(OutboxRepository) private readonly outbox: OutboxRepository,
    @InjectQueue(QueueName.DomainEvents) private readonly queue: Queue<DomainEventJob>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MetricsService) metrics: MetricsService,
  ) {
    const registers = [metrics.registry];
    this.reenqueued = new Counter({
      name: 'outbox_events_reenqueued_total',
      help: 'Published but unprocessed events whose domain-events job was lost or failed, enqueued again',
      registers,
    });
    this.oldestUnprocessedAge = new Gauge({
      name: 'outbox_oldest_unprocessed_event_age_seconds',
      help: 'Age of the oldest published event no consumer has processed (past the reconcile grace period), 0 when none',
      registers,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.listen();
    this.pollTimer = setInterval(() => this.wake(), this.config.OUTBOX_POLL_MS).unref();
    // A first pass at once: events a crash stranded need not wait a whole interval after a restart.
    const reconcile = () =>
      void this.reconcile().catch((e: Error) => this.logger.warn(`Outbox reconcile failed: ${e.message}`));
    this.reconcileTimer = setInterval(reconcile, this.config.RECONCILE_INTERVAL_MS).unref();
    this.wake();
    reconcile();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    clearInterval(this.reconcileTimer);
    clearTimeout(this.settleTimer);
    await this.draining;
    await this.listener?.close();
  }

  /** Drains after the settle delay; further notifications meanwhile join the same drain. */
  private wakeSoon(): void {
    if (this.settleTimer || this.stopped) return;
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined;
      this.wake();
    }, NOTIFY_SETTLE_MS);
    this.settleTimer.unref();
  }

  /** Drains now, or once more after the drain under way. */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.drainAgain = true;
      return;
    }
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.drainAgain) {
        this.drainAgain = false;
        this.wake();
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (!this.stopped && (await this.publisher.publishPending(BATCH)) === BATCH);
    } catch (error) {
      this.logger.warn(`Outbox relay could not publish: ${(error as Error).message}`);
    }
  }

  /**
   * Brings back every published event that nobody processed and whose job can no longer run: a job
   * Redis lost is enqueued again, a job that ran out of attempts (or stalled past the limit, which
   * BullMQ also records as failed) is retried, and so is a completed one: its processing was lost
   * (a consumer commits without waiting for the WAL flush, and PostgreSQL crashed). Pages through
   * all such events, oldest first.
   */
  async reconcile(): Promise<number> {
    const recovered: string[] = [];
    let after: PublishedEventRef | undefined;
    for (;;) {
      const page = await this.outbox.pagePublishedUnprocessed(
        this.config.OUTBOX_RECONCILE_GRACE_SECONDS,
        RECONCILE_PAGE,
        after,
      );
      if (!after)
        this.oldestUnprocessedAge.set(page.length ? (Date.now() - page[0].publishedAt.getTime()) / 1000 : 0);
      recovered.push(...(await this.recover(page)));
      if (page.length < RECONCILE_PAGE) break;
      after = page[page.length - 1];
    }
    if (recovered.length) {
      this.reenqueued.inc(recovered.length);
      const named = recovered.slice(0, 10).join(', ');
      const more = recovered.length > 10 ? ` and ${recovered.length - 10} more` : '';
      this.logger.warn(
        `Re-enqueued ${recovered.length} unprocessed event(s) whose jobs were lost or failed: ${named}${more}`,
      );
    }
    return recovered.length;
  }

  /** The ids whose jobs had to be added again or retried. */
  private async recover(events: PublishedEventRef[]): Promise<string[]> {
    const ids = events.map((e) => e.id);
    const outcomes = await mapInBatches(ids, 50, async (id) => {
      const job = await this.queue.getJob(id);
      if (!job) return 'missing';
      const state = await job.getState();
      if (state !== 'failed' && state !== 'completed') return 'alive';
      await job.retry(state);
      return 'retried';
    });
    const missing = events.filter((_, i) => outcomes[i] === 'missing');
    if (missing.length) {
      await this.publisher.enqueue(missing);
    }
    return ids.filter((_, i) => outcomes[i] !== 'alive');
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    let listener: OutboxListener | undefined;
    try {
      listener = await this.outbox.listenForInserts(this.config.DATABASE_URL, {
        onInsert: () => this.wakeSoon(),
        onLost: (e) => {
          this.logger.warn(`Outbox listener lost its connection (${e.message}); reconnecting`);
          if (listener && this.listener === listener) this.listener = undefined;
          setTimeout(() => void this.listen().catch(() => undefined), 1000).unref();
        },
      });
      this.listener = listener;
    } catch (error) {
      this.logger.warn(
        `Outbox listener cannot connect (${(error as Error).message}); polling only until it can`,
      );
      setTimeout(() => void this.listen().catch(() => undefined), 5000).unref();
    }
  }
}
