import { BullModule } from '@nestjs/bullmq';
import type { DefaultJobOptions, Queue } from 'bullmq';
import { finishedJobRetention, mapInBatches, QueueName, type WebhookDeliveryJob } from '@fincore/events';
import { APP_CONFIG, type AppConfig, traceCarrier } from '@fincore/platform';

/**
 * Delivery jobs are triggers only: the delivery row in PostgreSQL holds the state and the retry
 * schedule. BullMQ's own attempts cover unexpected errors (e.g. the database briefly away).
 */
export const WEBHOOK_DELIVERY_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 1000 },
};

/**
 * The `webhook-deliveries` queue for the apps that add delivery jobs (the API and the notifier).
 * Finished jobs stay as the QUEUE_*_RETENTION_* settings say, for operators to see in Bull Board;
 * a re-enqueue replaces them.
 */
export const WebhookDeliveryQueueModule = BullModule.registerQueueAsync({
  name: QueueName.WebhookDeliveries,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => ({
    defaultJobOptions: { ...WEBHOOK_DELIVERY_JOB_OPTIONS, ...finishedJobRetention(config) },
  }),
});

const ENQUEUE_CONCURRENCY = 50;
const DELIVER_JOB = 'deliver';

/** A delivery to enqueue: when it is due (now if absent) and its job's priority (backlogPriority). */
export interface DeliveryToEnqueue {
  deliveryId: string;
  runAt?: Date | null;
  priority: number;
}

/**
 * Enqueues one job per delivery (job id = delivery id). A job already waiting or active is left
 * alone; a delayed one is brought forward when the delivery is due now (a replay or manual retry of
 * a delivery whose job a disabled endpoint left parked for hours); a finished one is replaced, so a
 * delivery put back to pending runs again.
 */
export async function enqueueWebhookDeliveries(
  queue: Queue<WebhookDeliveryJob>,
  deliveries: DeliveryToEnqueue[],
): Promise<number> {
  // Deliveries are independent: a bounded number at a time, so a reconcile of a large backlog
  // takes round trips in parallel rather than one after the other.
  const added = await mapInBatches(deliveries, ENQUEUE_CONCURRENCY, (d) => enqueueOne(queue, d));
  return added.filter(Boolean).length;
}

/** Adds one job per delivery just created, in one round trip: fresh ids cannot have a job yet. */
export async function addNewWebhookDeliveries(
  queue: Queue<WebhookDeliveryJob>,
  deliveries: ReadonlyArray<Pick<DeliveryToEnqueue, 'deliveryId' | 'priority'>>,
): Promise<void> {
  await queue.addBulk(
    deliveries.map(({ deliveryId, priority }) => ({
      name: DELIVER_JOB,
      data: jobData(deliveryId),
      opts: { ...WEBHOOK_DELIVERY_JOB_OPTIONS, jobId: deliveryId, priority },
    })),
  );
}

/**
 * The delivery's id, and the trace of whoever queues it (the fan-out, a replay request), which its
 * attempts continue. Absent while tracing is off.
 */
function jobData(deliveryId: string): WebhookDeliveryJob {
  const trace = traceCarrier();
  return trace ? { deliveryId, trace } : { deliveryId };
}

/** True when a job had to be added. */
async function enqueueOne(
  queue: Queue<WebhookDeliveryJob>,
  { deliveryId, runAt, priority }: DeliveryToEnqueue,
): Promise<boolean> {
  const delay = runAt ? Math.max(0, runAt.getTime() - Date.now()) : 0;
  const existing = await queue.getJob(deliveryId);
  if (existing) {
    const state = await existing.getState();
    // The worker reads the delivery row, so a job run early only waits again: promoting is always safe.
    if (state === 'delayed' && delay === 0) await existing.promote().catch(() => undefined);
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return false;
    await existing.remove().catch(() => undefined);
  }
  await queue.add(DELIVER_JOB, jobData(deliveryId), {
    ...WEBHOOK_DELIVERY_JOB_OPTIONS,
    jobId: deliveryId,
    delay,
    priority,
  });
  return true;
}
