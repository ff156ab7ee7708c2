import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { APP_CONFIG, AppConfig } from '@fincore/platform';
import { mapInBatches } from './batches';
import { OutboxPublisher } from './outbox-publisher';
import { OutboxListener, OutboxRepository } from './outbox.repository';
import { DomainEventJob, QueueName } from './queues';

const BATCH = 200;
/**
 * A NOTIFY arrives for every committed row, while the process that committed it is publishing
 * it already. Waiting this long before draining lets that publisher win and folds a burst of
 * notifications into one drain, instead of one empty claim query per event per process.
 */
const NOTIFY_SETTLE_MS = 250;
/** An event published this long ago and still not processed is checked against the queue. */
const RECONCILE_GRACE_SECONDS = 30;
const RECONCILE_LIMIT = 1000;

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

  constructor(
    @Inject(OutboxPublisher) private readonly publisher: OutboxPublisher,
    @Inject(OutboxRepository) private readonly outbox: OutboxRepository,
    @InjectQueue(QueueName.DomainEvents) private readonly queue: Queue<DomainEventJob>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.listen();
    this.pollTimer = setInterval(() => this.wake(), this.config.OUTBOX_POLL_MS).unref();
    this.reconcileTimer = setInterval(
      () =>
        void this.reconcile().catch((e: Error) => this.logger.warn(`Outbox reconcile failed: ${e.message}`)),
      this.config.RECONCILE_INTERVAL_MS,
    ).unref();
    this.wake();
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

  /** Re-enqueues events that were published but whose job no longer exists and which nobody processed. */
  async reconcile(): Promise<number> {
    const ids = await this.outbox.findPublishedUnprocessed(RECONCILE_GRACE_SECONDS, RECONCILE_LIMIT);
    const jobs = await mapInBatches(ids, 50, (id) => this.queue.getJob(id));
    const missing = ids.filter((_, i) => !jobs[i]);
    if (missing.length) {
      this.logger.warn(`Re-enqueueing ${missing.length} event(s) whose jobs were lost`);
      await this.publisher.enqueue(missing);
    }
    return missing.length;
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
