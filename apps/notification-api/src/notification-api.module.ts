import { Module } from '@nestjs/common';
import { EventsModule } from '@fincore/events';
import { NotificationsDataModule, WebhookDeliveryQueueModule } from '@fincore/notifications';
import { secretBoxProvider } from '@fincore/webhooks';
import { EventWakeups } from './events/event-wakeups';
import { EventsController } from './events/events.controller';
import { EventsService } from './events/events.service';
import { NotificationConfigController } from './notification-configs/notification-config.controller';
import { NotificationConfigService } from './notification-configs/notification-config.service';
import { DeliveryQueue } from './webhook-deliveries/delivery-queue';
import { WebhookDeliveriesController } from './webhook-deliveries/webhook-deliveries.controller';
import { WebhookDeliveriesService } from './webhook-deliveries/webhook-deliveries.service';
import { WebhookEndpointsController } from './webhook-endpoints/webhook-endpoints.controller';
import { WebhookEndpointsService } from './webhook-endpoints/webhook-endpoints.service';

@Module({
  imports: [EventsModule.forRoot({ relay: true }), NotificationsDataModule, WebhookDeliveryQueueModule],
  controllers: [
    NotificationConfigController,
    WebhookEndpointsController,
    WebhookDeliveriesController,
    EventsController,
  ],
  providers: [
    NotificationConfigService,
    WebhookEndpointsService,
    WebhookDeliveriesService,
    DeliveryQueue,
    EventsService,
    EventWakeups,
    secretBoxProvider('notification-api'),
  ],
})
export class NotificationApiModule {}
