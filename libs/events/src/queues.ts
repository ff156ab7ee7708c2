import type { ConnectionOptions, DefaultJobOptions } from 'bullmq';

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

export function redisConnectionOptions(url: string): ConnectionOptions {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
  };
}

/** Completed jobs are kept a day so a second publish of the same event id stays a no-op. */
export function domainEventJobOptions(attempts: number): DefaultJobOptions {
  return {
    attempts,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: 24 * 3600, count: 50_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}
