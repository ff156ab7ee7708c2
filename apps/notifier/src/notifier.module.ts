import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { EventsModule, QueueName, WEBHOOK_DELIVERY_JOB_OPTIONS } from '@fincore/events';
import { secretBoxProvider } from '@fincore/webhooks';
import { DeliveryReconciler } from './delivery/delivery-reconciler';
import { DeliveryService } from './delivery/delivery.service';
import { WebhookDeliveryProcessor } from './delivery/webhook-delivery.processor';
import { DomainEventProcessor } from './fan-out/domain-event.processor';
import { FanOutService } from './fan-out/fan-out.service';
import { NotifierMetrics } from './shared/notifier-metrics';

/** The worker of DESIGN section 3: fan-out of domain events, signed delivery with retries, reconciliation. */
@Module({
  imports: [
    EventsModule.forRoot({ relay: false }),
    BullModule.registerQueue({
      name: QueueName.WebhookDeliveries,
      defaultJobOptions: WEBHOOK_DELIVERY_JOB_OPTIONS,
    }),
  ],
  providers: [
    secretBoxProvider('notifier'),
    NotifierMetrics,
    FanOutService,
    DomainEventProcessor,
    DeliveryService,
    WebhookDeliveryProcessor,
    DeliveryReconciler,
  ],
})
export class NotifierModule {}
