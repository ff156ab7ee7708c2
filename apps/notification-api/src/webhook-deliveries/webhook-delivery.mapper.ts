import type { WebhookDeliveryAttemptEntity, WebhookDeliveryEntity } from '@fincore/notifications';
import { isoOrNull } from '../common/dates';
import type {
  WebhookDeliveryAttemptResponse,
  WebhookDeliveryDetailResponse,
  WebhookDeliveryResponse,
} from './webhook-delivery.schemas';

export function mapWebhookDelivery(d: WebhookDeliveryEntity): WebhookDeliveryResponse {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    notificationTypeCode: d.notificationTypeCode,
    status: d.status,
    attemptCount: d.attemptCount,
    nextAttemptAt: isoOrNull(d.nextAttemptAt),
    lastAttemptAt: isoOrNull(d.lastAttemptAt),
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    deliveredAt: isoOrNull(d.deliveredAt),
    eventOccurredAt: d.eventOccurredAt.toISOString(),
    createdAt: d.createdAt.toISOString(),
  };
}

export function mapWebhookDeliveryAttempt(a: WebhookDeliveryAttemptEntity): WebhookDeliveryAttemptResponse {
  return {
    attemptNumber: a.attemptNumber,
    startedAt: a.startedAt.toISOString(),
    durationMs: a.durationMs,
    statusCode: a.statusCode,
    outcome: a.outcome,
    error: a.error,
    responseExcerpt: a.responseExcerpt,
    requestHeaders: a.requestHeaders,
  };
}

export function mapWebhookDeliveryDetail(
  d: WebhookDeliveryEntity,
  attempts: WebhookDeliveryAttemptEntity[],
  requestBody: string | null,
): WebhookDeliveryDetailResponse {
  return { ...mapWebhookDelivery(d), requestBody, attempts: attempts.map(mapWebhookDeliveryAttempt) };
}
