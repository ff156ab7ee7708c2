export { mapInBatches } from './batches';
export {
  EVENT_CATALOG,
  EVENT_TYPES,
  eventDataJsonSchema,
  isOperationalEventType,
  OPERATIONAL_EVENT_TYPES,
  personalDataFields,
  thinEventData,
} from './catalog';
export type { EventData, EventType } from './catalog';
export { toEnvelope } from './envelope';
export type { DomainEvent, StoredEvent } from './envelope';
export { EventsModule, QueueRootModule } from './events.module';
export { newDomainEvents } from './outbox';
export type { EventInput } from './outbox';
export { OutboxEventEntity } from './outbox.entity';
export { OutboxPublisher } from './outbox-publisher';
export { OutboxRelay } from './outbox-relay';
export { OutboxRepository } from './outbox.repository';
export { outboxInsertWhen, outboxRows } from './outbox-insert';
export type { OutboxRows } from './outbox-insert';
export { backlogPriority } from './priority';
export {
  domainEventJobOptions,
  finishedJobRetention,
  jobSpanAttributes,
  QueueName,
  queuePrefix,
  redisConnectionOptions,
} from './queues';
export type { DomainEventJob, WebhookDeliveryJob } from './queues';
export { ENDPOINT_SUBJECT, subjectOf } from './subject';
export type { EventSubject } from './subject';
export { UnitOfWork } from './unit-of-work';
export type { ChangeAsRead, Transaction } from './unit-of-work';
export type { CommitOrderPosition, CommittedEvent, CommittedRangeQuery } from './committed-events';
export { thinWebhookEnvelope, webhookEnvelope } from './webhook-envelope';
export type { ThinWebhookEnvelope, WebhookEnvelope } from './webhook-envelope';
