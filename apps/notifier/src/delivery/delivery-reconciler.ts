import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { enqueueWebhookDeliveries, QueueName, WebhookDeliveryJob } from '@fincore/events';
import { APP_CONFIG, AppConfig } from '@fincore/platform';

const BATCH = 500;

/**
 * DESIGN section 3, step 6 (delivery half): PostgreSQL is the truth, Redis is not. Every pending
 * delivery whose job is gone (Redis flushed or restarted empty, an enqueue that failed after
 * commit) gets its job back, due at the time the row says. Idempotent, so every replica may run it.
 */
@Injectable()
export class DeliveryReconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DeliveryReconciler.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue<WebhookDeliveryJob>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.reconcile()
        .catch((e: Error) => this.logger.warn(`Delivery reconcile failed: ${e.message}`))
        .finally(() => (this.running = undefined));
    }, this.config.RECONCILE_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Returns how many jobs it had to re-create. */
  async reconcile(): Promise<number> {
    let restored = 0;
    let after = new Date(0);
    let afterId = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows: Array<{ id: string; next_attempt_at: Date | null; created_at: Date }> = await this.db.query(
        `SELECT id, next_attempt_at, created_at FROM notifications.webhook_deliveries
          WHERE status = 'PENDING' AND (created_at, id) > ($1, $2)
          ORDER BY created_at, id LIMIT $3`,
        [after, afterId, BATCH],
      );
      if (!rows.length) break;
      restored += await enqueueWebhookDeliveries(
        this.queue,
        rows.map((r) => ({ deliveryId: r.id, runAt: r.next_attempt_at })),
      );
      const last = rows[rows.length - 1];
      after = last.created_at;
      afterId = last.id;
      if (rows.length < BATCH) break;
    }
    if (restored) this.logger.warn(`Re-created ${restored} webhook delivery job(s) missing from the queue`);
    return restored;
  }
}
