import { Injectable } from '@nestjs/common';
import { AttemptRecord, DeliveryStatus, WebhookDeliveryAttemptRepository } from '@fincore/notifications';

/** Enough rows for one statement to stay short. */
const MAX_BATCH = 100;

interface Waiting {
  attempt: AttemptRecord;
  resolve: (status: DeliveryStatus | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Records successful attempts with as few statements as they allow: one at a time is recorded at
 * once, and those that finish while a statement is under way go together in the next. A success
 * the batch could not take (its row held by someone else, or the batch failing) is recorded on
 * its own, as it would have been without the batch.
 */
@Injectable()
export class SucceededAttemptRecorder {
  private waiting: Waiting[] = [];
  private flushing = false;

  constructor(private readonly deliveries: WebhookDeliveryAttemptRepository) {}

  /** Answers the delivery's status after, as WebhookDeliveryAttemptRepository.recordSucceededAttempt. */
  record(attempt: AttemptRecord): Promise<DeliveryStatus | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ attempt, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        if (batch.length === 1) await this.recordAlone(batch[0]);
        else await this.recordTogether(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async recordTogether(batch: Waiting[]): Promise<void> {
    const recorded = await this.deliveries
      .recordSucceededAttempts(batch.map((w) => w.attempt))
      .catch(() => new Map<string, DeliveryStatus>());
    for (const waiting of batch) {
      const status = recorded.get(waiting.attempt.deliveryId);
      if (status !== undefined) waiting.resolve(status);
      // Not awaited: the others wait on their rows in parallel, not behind the next batch.
      else void this.recordAlone(waiting);
    }
  }

  private async recordAlone({ attempt, resolve, reject }: Waiting): Promise<void> {
    try {
      resolve(await this.deliveries.recordSucceededAttempt(attempt));
    } catch (error) {
      reject(error);
    }
  }
}
