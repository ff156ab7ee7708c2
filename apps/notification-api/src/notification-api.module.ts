import { Module } from '@nestjs/common';
import { EventsModule } from '@fincore/events';
import { NotificationsDataModule, WebhookDeliveryQueueModule } from '@fincore/notifications';
import { secretBoxProvider } from '@fincore/webhooks';
import { NotificationConfigsController } from './notification-configs/notification-configs.controller';
import { NotificationConfigsService } from './notification-configs/notification-configs.service';
import { DeliveryQueue } from './webhook-deliveries/delivery-queue';
import { WebhookDeliveriesController } from './webhook-deliveries/webhook-deliveries.controller';
import { WebhookDeliveriesService } from './webhook-deliveries/webhook-deliveries.service';
import { WebhookEndpointsController } from './webhook-endpoints/webhook-endpoints.controller';
import { WebhookEndpointsService } from './webhook-endpoints/webhook-endpoints.service';

@Module({
  imports: [EventsModule.forRoot({ relay: true }), NotificationsDataModule, WebhookDeliveryQueueModule],
  controllers: [NotificationConfigsController, WebhookEndpointsController, WebhookDeliveriesController],
  providers: [
    NotificationConfigsService,
    WebhookEndpointsService,
    WebhookDeliveriesService,
    DeliveryQueue,
    secretBoxProvider('notification-api'),
  ],
})
export class NotificationApiModule {}
