import type { ConnectionOptions, DefaultJobOptions } from 'bullmq';
import { createQueueConnection } from '@fincore/platform';
import type { Attributes } from '@opentelemetry/api';
import type { TraceCarrier } from '@fincore/platform';

/**
 * Every BullMQ queue of fincore, in one place. Job payloads carry ids only; the job loads the rest.
 * Beside the id a job may carry `trace`, the W3C trace context its work continues (metadata, absent
 * while tracing is off).
 */
export enum QueueName {
  DomainEvents = 'domain-events',
  WebhookDeliveries = 'webhook-deliveries',
}

export interface DomainEventJob {
  eventId: string;
  trace?: TraceCarrier;
}

export interface WebhookDeliveryJob {
  deliveryId: string;
  trace?: TraceCarrier;
}

/** Span attributes of a job sent to or processed from a queue (OpenTelemetry messaging conventions). */
export function jobSpanAttributes(
  queue: QueueName,
  operation: 'send' | 'process',
  jobId: string,
): Attributes {
  return {
    'messaging.system': 'bullmq',
    'messaging.destination.name': queue,
    'messaging.operation.type': operation,
    'messaging.message.id': jobId,
  };
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
