import { Module } from '@nestjs/common';
import { EventsModule } from '@fincore/events';
import { NotificationsDataModule, WebhookDeliveryQueueModule } from '@fincore/notifications';
import { secretBoxProvider } from '@fincore/webhooks';
import { EventWakeups } from './events/event-wakeups';
import { EventsController } from './events/events.controller';
import { EventsService } from './events/events.service';
import { NotificationConfigsController } from './notification-configs/notification-configs.controller';
import { NotificationConfigsService } from './notification-configs/notification-configs.service';
import { DeliveryQueue } from './webhook-deliveries/delivery-queue';
import { WebhookDeliveriesController } from './webhook-deliveries/webhook-deliveries.controller';
import { WebhookDeliveriesService } from './webhook-deliveries/webhook-deliveries.service';
import { WebhookEndpointsController } from './webhook-endpoints/webhook-endpoints.controller';
import { WebhookEndpointsService } from './webhook-endpoints/webhook-endpoints.service';

@Module({
  imports: [EventsModule.forRoot({ relay: true }), NotificationsDataModule, WebhookDeliveryQueueModule],
  controllers: [
    NotificationConfigsController,
    WebhookEndpointsController,
    WebhookDeliveriesController,
    EventsController,
  ],
  providers: [
    NotificationConfigsService,
    WebhookEndpointsService,
    WebhookDeliveriesService,
    DeliveryQueue,
    EventsService,
    EventWakeups,
    secretBoxProvider('notification-api'),
  ],
})
export class NotificationApiModule {}
