import type { NotificationConfigEntity } from './entities/notification-config.entity';
import type { WebhookDeliveryAttemptEntity } from './entities/webhook-delivery-attempt.entity';
import type { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import type { WebhookEndpointEntity } from './entities/webhook-endpoint.entity';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toConfigResponse(c: NotificationConfigEntity) {
  return {
    notificationTypeCode: c.notificationTypeCode,
    channelCode: c.channelCode,
    enabled: c.enabled,
    enabledAt: c.enabled ? iso(c.enabledAt) : null,
    updatedAt: c.updatedAt.toISOString(),
  };
}

export function toEndpointResponse(e: WebhookEndpointEntity) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    notificationTypeCodes: e.notificationTypeCodes,
    status: e.status,
    disabledReason: e.disabledReason,
    disabledAt: iso(e.disabledAt),
    failingSince: iso(e.failingSince),
    lastSuccessAt: iso(e.lastSuccessAt),
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

export function toDeliveryResponse(d: WebhookDeliveryEntity) {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    notificationTypeCode: d.notificationTypeCode,
    status: d.status,
    attemptCount: d.attemptCount,
    nextAttemptAt: iso(d.nextAttemptAt),
    lastAttemptAt: iso(d.lastAttemptAt),
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    deliveredAt: iso(d.deliveredAt),
    eventOccurredAt: d.eventOccurredAt.toISOString(),
    createdAt: d.createdAt.toISOString(),
  };
}

export function toAttemptResponse(a: WebhookDeliveryAttemptEntity) {
  return {
    attemptNumber: a.attemptNumber,
    startedAt: a.startedAt.toISOString(),
    durationMs: a.durationMs,
    statusCode: a.statusCode,
    outcome: a.outcome,
    error: a.error,
    responseExcerpt: a.responseExcerpt,
  };
}
