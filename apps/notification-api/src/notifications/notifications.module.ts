import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QueueName, WEBHOOK_DELIVERY_JOB_OPTIONS } from '@fincore/events';
import { secretBoxProvider } from '@fincore/webhooks';
import './notifications.messages';
import { DeliveryQueue } from './delivery-queue';
import { NotificationConfigEntity } from './entities/notification-config.entity';
import { WebhookDeliveryAttemptEntity } from './entities/webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from './entities/webhook-endpoint.entity';
import { NotificationConfigController } from './notification-config.controller';
import { NotificationConfigService } from './notification-config.service';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsService } from './webhook-endpoints.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      NotificationConfigEntity,
      WebhookEndpointEntity,
      WebhookDeliveryEntity,
      WebhookDeliveryAttemptEntity,
    ]),
    BullModule.registerQueue({
      name: QueueName.WebhookDeliveries,
      defaultJobOptions: WEBHOOK_DELIVERY_JOB_OPTIONS,
    }),
  ],
  controllers: [NotificationConfigController, WebhookEndpointsController, WebhookDeliveriesController],
  providers: [
    NotificationConfigService,
    WebhookEndpointsService,
    WebhookDeliveriesService,
    DeliveryQueue,
    secretBoxProvider('notification-api'),
  ],
})
export class NotificationsModule {}
