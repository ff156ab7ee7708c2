import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { WebhookDeliveryRetentionRepository } from '@fincore/notifications';
import { APP_CONFIG, AppConfig, deleteInBatches, PeriodicTask } from '@fincore/platform';
import { NotifierMetrics } from '../metrics/notifier-metrics';

/** Rows per DELETE statement: small enough that no statement holds its row locks for long. */
export const RETENTION_BATCH = 1000;
const DAY_MS = 24 * 3600 * 1000;

export interface RetentionRound {
  deliveries: number;
  attempts: number;
  events: number;
}

/**
 * Keeps the outbox and the delivery history bounded: every few minutes it deletes finished
 * deliveries (with their attempts) and processed outbox events past their retention, batch by
 * batch. Replicas running at once skip each other's rows (SKIP LOCKED).
 */
@Injectable()
export class RetentionJanitor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RetentionJanitor.name);
  private readonly task: PeriodicTask;

  constructor(
    private readonly deliveries: WebhookDeliveryRetentionRepository,
    private readonly metrics: NotifierMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.task = new PeriodicTask(config.RETENTION_INTERVAL_MS, () => this.deleteExpired());
    // Each table's series from 0, so an increase() sees the first deletion too.
    for (const table of Object.values(TABLES)) this.metrics.retentionDeleted.inc({ table }, 0);
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  // Before the DataSource closes, so a running batch can finish.
  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  /** One round; answers how many rows of each kind went. A failure is logged and left to the next round. */
  async deleteExpired(now = new Date()): Promise<RetentionRound> {
    const round: RetentionRound = { deliveries: 0, attempts: 0, events: 0 };
    try {
      // Deliveries first: an outbox event stays as long as a delivery refers to it.
      const deliveryCutoff = new Date(now.getTime() - this.config.DELIVERY_RETENTION_DAYS * DAY_MS);
      await deleteInBatches(RETENTION_BATCH, async (limit) => {
        const gone = await this.deliveries.deleteFinishedBefore(deliveryCutoff, limit);
        this.count(round, 'deliveries', gone.deliveries);
        this.count(round, 'attempts', gone.attempts);
        return gone.deliveries;
      });
      const eventCutoff = new Date(now.getTime() - this.config.OUTBOX_RETENTION_DAYS * DAY_MS);
      await deleteInBatches(RETENTION_BATCH, async (limit) => {
        const gone = await this.deliveries.deleteProcessedEventsBefore(eventCutoff, limit);
        this.count(round, 'events', gone);
        return gone;
      });
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not delete rows past retention; trying again later');
    }
    if (round.deliveries || round.attempts || round.events)
      this.logger.log(
        `Retention deleted ${round.deliveries} delivery(ies), ${round.attempts} attempt(s), ${round.events} outbox event(s)`,
      );
    return round;
  }

  private count(round: RetentionRound, kind: keyof RetentionRound, rows: number): void {
    round[kind] += rows;
    if (rows) this.metrics.retentionDeleted.inc({ table: TABLES[kind] }, rows);
  }
}

const TABLES: Record<keyof RetentionRound, string> = {
  deliveries: 'notifications.webhook_deliveries',
  attempts: 'notifications.webhook_delivery_attempts',
  events: 'events.outbox',
};
