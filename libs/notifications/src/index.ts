export { CHANNEL_CODES, ChannelCode, IMPLEMENTED_CHANNELS, isImplementedChannel } from './channels';
export {
  AttemptOutcome,
  DELIVERY_STATUSES,
  DeliveryStatus,
  EndpointOrdering,
  EndpointPayload,
  EndpointStatus,
} from './statuses';
export {
  WebhookDeliveryQueueModule,
  addNewWebhookDeliveries,
  enqueueWebhookDeliveries,
} from './webhook-delivery-queue';
export { NotificationsDataModule } from './notifications-data.module';
export { NotificationConfigEntity } from './notification-configs/notification-config.entity';
export { NotificationConfigRepository } from './notification-configs/notification-config.repository';
export { WebhookEndpointEntity } from './webhook-endpoints/webhook-endpoint.entity';
export { WebhookEndpointRepository } from './webhook-endpoints/webhook-endpoint.repository';
export { EndpointPacingState } from './webhook-endpoints/endpoint-pacing-state';
export { receivesDeliveries } from './webhook-endpoints/receives-deliveries';
export {
  checkEventFilter,
  FILTER_OPERATORS,
  FILTER_PATH_PATTERN,
  filterAccepts,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_DEPTH,
  MAX_FILTER_STRING,
  MAX_FILTER_VALUES,
} from './webhook-endpoints/event-filter';
export type { EventFilter, FilteredEvent, FilterProblem } from './webhook-endpoints/event-filter';
export { WebhookDeliveryEntity } from './webhook-deliveries/webhook-delivery.entity';
export { WebhookDeliveryAttemptEntity } from './webhook-deliveries/webhook-delivery-attempt.entity';
export { WebhookDeliveryFanOutRepository } from './webhook-deliveries/webhook-delivery-fan-out.repository';
export { WebhookDeliveryAttemptRepository } from './webhook-deliveries/webhook-delivery-attempt.repository';
export { webhookBody } from './webhook-deliveries/webhook-body';
export type { LockedForFailure } from './webhook-deliveries/webhook-delivery-attempt.repository';
export { WebhookDeliveryAdminRepository } from './webhook-deliveries/webhook-delivery-admin.repository';
export type {
  DeliveryHour,
  EndpointHealthCounts,
} from './webhook-deliveries/webhook-delivery-admin.repository';
export { WebhookDeliveryRetentionRepository } from './webhook-deliveries/webhook-delivery-retention.repository';
export { WebhookDeliveryErasureRepository } from './webhook-deliveries/webhook-delivery-erasure.repository';
export type {
  AttemptRecord,
  ChainPosition,
  CreatedDelivery,
  DeliveryForAttempt,
  DeliveryPosition,
  PendingDelivery,
} from './webhook-deliveries/webhook-delivery.rows';
