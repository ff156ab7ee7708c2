import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { deleteInBatches, PeriodicTask } from '../scheduling/periodic-task';
import { IdempotencyKeyRepository } from './idempotency-key.repository';

const CLEANUP_EVERY_MS = 5 * 60 * 1000;
const CLEANUP_BATCH = 1000;

/**
 * Deletes expired idempotency keys in small batches every few minutes, in every API process;
 * replicas cleaning at once skip each other's rows.
 */
@Injectable()
export class IdempotencyKeyJanitor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('IdempotencyKeyJanitor');
  private readonly task = new PeriodicTask(CLEANUP_EVERY_MS, () => this.deleteExpired());

  constructor(private readonly keys: IdempotencyKeyRepository) {}

  onApplicationBootstrap(): void {
    this.task.start();
  }

  // Before the DataSource closes (at application shutdown), so a running batch can finish.
  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  /** Deletes every expired key, one batch per statement; returns how many. */
  async deleteExpired(): Promise<number> {
    let total = 0;
    try {
      await deleteInBatches(CLEANUP_BATCH, async (limit) => {
        const deleted = await this.keys.deleteExpired(limit);
        total += deleted;
        return deleted;
      });
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not delete expired idempotency keys; trying again later');
    }
    return total;
  }
}
