import type { ConnectionOptions, DefaultJobOptions } from 'bullmq';
import { createQueueConnection } from '@fincore/platform';

/** Every BullMQ queue of fincore, in one place. Job payloads carry ids only; the job loads the rest. */
export enum QueueName {
  DomainEvents = 'domain-events',
  WebhookDeliveries = 'webhook-deliveries',
}

export interface DomainEventJob {
  eventId: string;
}

export interface WebhookDeliveryJob {
  deliveryId: string;
}

/** Hash-tagged so every key of a queue lands in one Redis Cluster slot. */
export function queuePrefix(queuePrefixSetting: string): string {
  return `{${queuePrefixSetting}}`;
}

/** BullMQ connection options for one Redis server at `url`; on a cluster see createQueueConnection. */
export function redisConnectionOptions(url: string): ConnectionOptions {
  return createQueueConnection({ REDIS_URL: url });
}

/** How long Redis keeps finished jobs; the settings of the same names. */
export interface FinishedJobRetention {
  QUEUE_COMPLETED_RETENTION_SECONDS: number;
  QUEUE_COMPLETED_RETENTION_COUNT: number;
  QUEUE_FAILED_RETENTION_SECONDS: number;
}

/**
 * Completed jobs stay for the age or until the count pushes them out, whichever comes first: the
 * count bounds Redis memory at any event rate. They are there for operators (Bull Board) only; a
 * second publish of an event is a no-op because its outbox row is marked processed, not because a
 * job with its id is still there.
 */
export function finishedJobRetention(settings: FinishedJobRetention): DefaultJobOptions {
  return {
    removeOnComplete: {
      age: settings.QUEUE_COMPLETED_RETENTION_SECONDS,
      count: settings.QUEUE_COMPLETED_RETENTION_COUNT,
    },
    removeOnFail: { age: settings.QUEUE_FAILED_RETENTION_SECONDS },
  };
}

export function domainEventJobOptions(attempts: number, retention: FinishedJobRetention): DefaultJobOptions {
  return {
    attempts,
    backoff: { type: 'exponential', delay: 1000 },
    ...finishedJobRetention(retention),
  };
}
