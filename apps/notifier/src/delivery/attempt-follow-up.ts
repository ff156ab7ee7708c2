import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { QueueName, WebhookDeliveryJob } from '@fincore/events';
import { enqueueWebhookDeliveries } from '@fincore/notifications';
import type { NextRun } from './next-run';

/**
 * What follows an attempt, wherever it ran (a delivery's job, or the fan-out's first attempt):
 * a delivery due again runs at its time, and a finished one of an ordered chain wakes the next,
 * which sleeps until it looks again. A wake-up lost (a crash, Redis away) only makes it look again
 * later: its own job's time is the net, so an attempt already recorded does not fail for it.
 */
@Injectable()
export class AttemptFollowUp {
  private readonly logger = new Logger(AttemptFollowUp.name);

  constructor(@InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue<WebhookDeliveryJob>) {}

  /**
   * `runAgain`: how the delivery runs again at a time; without it (a first attempt has no job)
   * it gets a job at `priority`, and a job lost here is the delivery reconciler's to give back.
   */
  async follow(
    deliveryId: string,
    next: NextRun,
    priority: number,
    runAgain?: (at: Date) => Promise<void>,
  ): Promise<void> {
    if (next.kind === 'run_at') {
      if (runAgain) return runAgain(next.at);
      await enqueueWebhookDeliveries(this.queue, [{ deliveryId, runAt: next.at, priority }]).catch(
        (error: Error) => this.logger.warn(`Could not queue delivery ${deliveryId}: ${error.message}`),
      );
    } else if (next.wake) {
      await enqueueWebhookDeliveries(this.queue, [
        { deliveryId: next.wake.id, runAt: next.wake.nextAttemptAt, priority },
      ]).catch(() => undefined);
    }
  }
}
