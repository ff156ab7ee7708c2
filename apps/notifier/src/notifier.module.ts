import { Module } from '@nestjs/common';
import { EventsModule } from '@fincore/events';
import { NotificationsDataModule, WebhookDeliveryQueueModule } from '@fincore/notifications';
import { secretBoxProvider } from '@fincore/webhooks';
import { AttemptAdmission } from './delivery/attempt-admission';
import { AttemptFollowUp } from './delivery/attempt-follow-up';
import { AttemptRecorder } from './delivery/attempt-recorder';
import { DeliveryReconciler } from './delivery/delivery-reconciler';
import { DeliverySigner } from './delivery/delivery-signer';
import { DeliveryService } from './delivery/delivery.service';
import { EndpointPacer } from './delivery/endpoint-pacer';
import { EndpointHealth } from './delivery/endpoint-health';
import { SucceededAttemptRecorder } from './delivery/succeeded-attempt-recorder';
import { WebhookDeliveryProcessor } from './delivery/webhook-delivery.processor';
import { WebhookSender } from './delivery/webhook-sender';
import { DomainEventProcessor } from './fan-out/domain-event.processor';
import { TenantPriority } from './fairness/tenant-priority';
import { FanOutService } from './fan-out/fan-out.service';
import { NotifierMetrics } from './metrics/notifier-metrics';
import { RetentionJanitor } from './retention/retention-janitor';

/** The worker: fan-out of domain events, signed delivery with retries, reconciliation, retention. */
@Module({
  imports: [EventsModule.forRoot({ relay: false }), NotificationsDataModule, WebhookDeliveryQueueModule],
  providers: [
    secretBoxProvider('notifier'),
    NotifierMetrics,
    TenantPriority,
    FanOutService,
    DomainEventProcessor,
    DeliveryService,
    AttemptAdmission,
    DeliverySigner,
    AttemptRecorder,
    AttemptFollowUp,
    EndpointPacer,
    SucceededAttemptRecorder,
    EndpointHealth,
    WebhookSender,
    WebhookDeliveryProcessor,
    DeliveryReconciler,
    RetentionJanitor,
  ],
})
export class NotifierModule {}
