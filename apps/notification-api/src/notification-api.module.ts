import { Module } from '@nestjs/common';
import { EventsModule } from '@fincore/events';
import { NotificationsDataModule, WebhookDeliveryQueueModule } from '@fincore/notifications';
import { secretBoxProvider } from '@fincore/webhooks';
import { EndpointActivityController } from './endpoint-activity/endpoint-activity.controller';
import { EndpointActivityService } from './endpoint-activity/endpoint-activity.service';
import { EventWakeups } from './events/event-wakeups';
import { EventsController } from './events/events.controller';
import { EventsService } from './events/events.service';
import { NotificationConfigsController } from './notification-configs/notification-configs.controller';
import { NotificationConfigsService } from './notification-configs/notification-configs.service';
import {
  APP_CONFIG,
  AppConfig,
  portalBaseUrl,
  PortalLinks,
  PortalSessionRepository,
} from '@fincore/platform';
import { PortalSessionsController } from './portal/portal-sessions.controller';
import { PortalSessionsService } from './portal/portal-sessions.service';
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
    PortalSessionsController,
    EndpointActivityController,
  ],
  providers: [
    NotificationConfigsService,
    WebhookEndpointsService,
    WebhookDeliveriesService,
    DeliveryQueue,
    EventsService,
    EventWakeups,
    secretBoxProvider('notification-api'),
    PortalSessionsService,
    EndpointActivityService,
    {
      provide: PortalLinks,
      inject: [PortalSessionRepository, APP_CONFIG],
      useFactory: (sessions: PortalSessionRepository, config: AppConfig) =>
        new PortalLinks(sessions, portalBaseUrl(config)),
    },
  ],
})
export class NotificationApiModule {}
