import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
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
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(private readonly keys: IdempotencyKeyRepository) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.deleteExpired().finally(() => (this.running = undefined));
    }, CLEANUP_EVERY_MS);
    this.timer.unref();
  }

  // Before the DataSource closes (at application shutdown), so a running batch can finish.
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Deletes every expired key, one batch per statement; returns how many. */
  async deleteExpired(): Promise<number> {
    let total = 0;
    try {
      for (;;) {
        const deleted = await this.keys.deleteExpired(CLEANUP_BATCH);
        total += deleted;
        if (deleted < CLEANUP_BATCH) break;
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not delete expired idempotency keys; trying again later');
    }
    return total;
  }
}
