import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '@fincore/platform';
import { mapInBatches } from './batches';
import { OutboxPublisher } from './outbox-publisher';
import { DomainEventJob, QueueName } from './queues';

export const OUTBOX_CHANNEL = 'fincore_outbox';
const BATCH = 200;
/**
 * A NOTIFY arrives for every committed row, while the process that committed it is publishing
 * it already. Waiting this long before draining lets that publisher win and folds a burst of
 * notifications into one drain, instead of one empty claim query per event per process.
 */
const NOTIFY_SETTLE_MS = 250;
/** An event published this long ago and still not processed is checked against the queue. */
const RECONCILE_GRACE_SECONDS = 30;

/**
 * Publishes whatever a crash left behind: woken by LISTEN/NOTIFY on every committed outbox row,
 * with a slow poll as a net. The same loop re-enqueues published events whose jobs Redis lost
 * (DESIGN section 3, step 6, outbox half).
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private listener?: Client;
  private pollTimer?: NodeJS.Timeout;
  private reconcileTimer?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private settleTimer?: NodeJS.Timeout;
  private drainAgain = false;
  private stopped = false;

  constructor(
    private readonly publisher: OutboxPublisher,
    @InjectDataSource() private readonly db: DataSource,
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
    await this.listener?.end().catch(() => undefined);
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
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT id FROM events.outbox
        WHERE published_at IS NOT NULL AND processed_at IS NULL
          AND published_at < now() - make_interval(secs => $1)
        ORDER BY published_at LIMIT 1000`,
      [RECONCILE_GRACE_SECONDS],
    );
    const jobs = await mapInBatches(rows, 50, ({ id }) => this.queue.getJob(id));
    const missing = rows.filter((_, i) => !jobs[i]).map((r) => r.id);
    if (missing.length) {
      this.logger.warn(`Re-enqueueing ${missing.length} event(s) whose jobs were lost`);
      await this.publisher.enqueue(missing);
    }
    return missing.length;
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.config.DATABASE_URL });
    client.on('notification', () => this.wakeSoon());
    client.on('error', (e) => {
      this.logger.warn(`Outbox listener lost its connection (${e.message}); reconnecting`);
      if (this.listener === client) this.listener = undefined;
      void client.end().catch(() => undefined);
      setTimeout(() => void this.listen().catch(() => undefined), 1000).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.listener = client;
    } catch (error) {
      this.logger.warn(
        `Outbox listener cannot connect (${(error as Error).message}); polling only until it can`,
      );
      await client.end().catch(() => undefined);
      setTimeout(() => void this.listen().catch(() => undefined), 5000).unref();
    }
  }
}
