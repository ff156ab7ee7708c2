import { Injectable } from '@nestjs/common';
import { StatementBatch } from '@fincore/database';
import { AttemptRecord, DeliveryStatus, WebhookDeliveryAttemptRepository } from '@fincore/notifications';

/** Enough rows for one statement to stay short. */
const MAX_BATCH = 100;

/**
 * Records successful attempts with as few statements as they allow: one at a time is recorded at
 * once, and those that finish while a statement is under way go together in the next. A success
 * the batch could not take (its row held by someone else, or the batch failing) is recorded on
 * its own, as it would have been without the batch.
 */
@Injectable()
export class SucceededAttemptRecorder {
  private readonly batch: StatementBatch<AttemptRecord, DeliveryStatus | undefined>;

  constructor(deliveries: WebhookDeliveryAttemptRepository) {
    this.batch = new StatementBatch(
      {
        alone: (attempt) => deliveries.recordSucceededAttempt(attempt),
        together: async (attempts) => {
          const recorded = await deliveries.recordSucceededAttempts(attempts);
          return attempts.map((a) => recorded.get(a.deliveryId));
        },
      },
      MAX_BATCH,
    );
  }

  /** Answers the delivery's status after, as WebhookDeliveryAttemptRepository.recordSucceededAttempt. */
  record(attempt: AttemptRecord): Promise<DeliveryStatus | undefined> {
    return this.batch.run(attempt);
  }
}
