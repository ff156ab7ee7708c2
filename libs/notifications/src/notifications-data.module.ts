import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { NotificationConfigEntity } from './notification-configs/notification-config.entity';
import { NotificationConfigRepository } from './notification-configs/notification-config.repository';
import { WebhookDeliveryAttemptEntity } from './webhook-deliveries/webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-deliveries/webhook-delivery.entity';
import { WebhookDeliveryAdminRepository } from './webhook-deliveries/webhook-delivery-admin.repository';
import { WebhookDeliveryAttemptRepository } from './webhook-deliveries/webhook-delivery-attempt.repository';
import { WebhookDeliveryFanOutRepository } from './webhook-deliveries/webhook-delivery-fan-out.repository';
import { WebhookDeliveryRetentionRepository } from './webhook-deliveries/webhook-delivery-retention.repository';
import { EndpointPacingState } from './webhook-endpoints/endpoint-pacing-state';
import { WebhookEndpointEntity } from './webhook-endpoints/webhook-endpoint.entity';
import { WebhookEndpointRepository } from './webhook-endpoints/webhook-endpoint.repository';

/** The tables of the `notifications` schema. */
export const NOTIFICATION_ENTITIES = [
  NotificationConfigEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
  WebhookDeliveryAttemptEntity,
];

const repositories = [
  NotificationConfigRepository,
  WebhookEndpointRepository,
  WebhookDeliveryFanOutRepository,
  WebhookDeliveryAttemptRepository,
  WebhookDeliveryAdminRepository,
  WebhookDeliveryRetentionRepository,
  EndpointPacingState,
];

/** The notification context's data access, for every app that reads or writes its tables or pacing state. */
@Module({
  imports: [TypeOrmModule.forFeature(NOTIFICATION_ENTITIES)],
  providers: repositories,
  exports: repositories,
})
export class NotificationsDataModule {}
