import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { QueueName, WebhookDeliveryJob } from '@fincore/events';
import {
  DeliveryPosition,
  enqueueWebhookDeliveries,
  WebhookDeliveryAdminRepository,
} from '@fincore/notifications';
import { APP_CONFIG, AppConfig } from '@fincore/platform';
import { TenantPriority } from '../fairness/tenant-priority';
import { NotifierMetrics } from '../metrics/notifier-metrics';

const BATCH = 500;

/**
 * PostgreSQL is the truth, Redis is not. Every pending delivery whose job is gone (Redis flushed
 * or restarted empty, an enqueue that failed after commit, a first attempt cut short by a crash)
 * gets its job back, due at the time the row says. A delivery never attempted is left alone for
 * twice the attempt timeout after its creation: the fan-out's first attempt, which has no job, may
 * still be under way. Idempotent, so every replica may run it.
 */
@Injectable()
export class DeliveryReconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DeliveryReconciler.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly deliveries: WebhookDeliveryAdminRepository,
    @InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue<WebhookDeliveryJob>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly priority: TenantPriority,
    private readonly metrics: NotifierMetrics,
  ) {}

  onApplicationBootstrap(): void {
    const pass = () => {
      if (this.running) return;
      this.running = this.reconcile()
        .catch((e: Error) => this.logger.warn(`Delivery reconcile failed: ${e.message}`))
        .finally(() => (this.running = undefined));
    };
    this.timer = setInterval(pass, this.config.RECONCILE_INTERVAL_MS);
    // A first pass at once: deliveries a crash left without a job need not wait a whole interval.
    pass();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Returns how many jobs it had to re-create. */
  async reconcile(): Promise<number> {
    let restored = 0;
    let after: DeliveryPosition = { createdAt: new Date(0), id: '00000000-0000-0000-0000-000000000000' };
    const firstAttemptsSince = new Date(Date.now() - 2 * this.config.WEBHOOK_TIMEOUT_MS);
    for (;;) {
      const page = await this.deliveries.pagePending(after, BATCH, firstAttemptsSince);
      if (!page.length) break;
      const priorities = await this.priority.ofAll(page.map((d) => d.tenantId));
      restored += await enqueueWebhookDeliveries(
        this.queue,
        page.map((d) => ({
          deliveryId: d.id,
          runAt: d.nextAttemptAt,
          priority: priorities.get(d.tenantId)!,
        })),
      );
      const last = page[page.length - 1];
      after = { createdAt: last.createdAt, id: last.id };
      if (page.length < BATCH) break;
    }
    if (restored) {
      this.metrics.deliveryJobsRecreated.inc(restored);
      this.logger.warn(`Re-created ${restored} webhook delivery job(s) missing from the queue`);
    }
    return restored;
  }
}
