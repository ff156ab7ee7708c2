export * from './channels';
export * from './statuses';
export * from './webhook-delivery-queue';
export * from './notifications-data.module';
export * from './notification-configs/notification-config.entity';
export * from './notification-configs/notification-config.repository';
export * from './webhook-endpoints/webhook-endpoint.entity';
export * from './webhook-endpoints/webhook-endpoint.repository';
export * from './webhook-endpoints/endpoint-pacing-state';
export * from './webhook-endpoints/receives-deliveries';
export * from './webhook-deliveries/webhook-delivery.entity';
export * from './webhook-deliveries/webhook-delivery-attempt.entity';
export * from './webhook-deliveries/webhook-delivery-fan-out.repository';
export * from './webhook-deliveries/webhook-delivery-attempt.repository';
export * from './webhook-deliveries/webhook-delivery-admin.repository';
export * from './webhook-deliveries/webhook-delivery-retention.repository';
export type {
  AttemptRecord,
  ChainPosition,
  CreatedDelivery,
  DeliveryForAttempt,
  DeliveryPosition,
  PendingDelivery,
} from './webhook-deliveries/webhook-delivery.rows';
