import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '@fincore/events';
import {
  WebhookDeliveryAdminRepository,
  WebhookDeliveryAttemptRepository,
  webhookBody,
  WebhookEndpointRepository,
} from '@fincore/notifications';
import { keysetCursor, Principal } from '@fincore/platform';
import {
  webhookDeliveryInProgress,
  webhookDeliveryNotFound,
  webhookEndpointDisabled,
} from '../common/notification.problems';
import { DeliveryQueue } from './delivery-queue';
import { retryRefusal } from './domain/retry-rules';
import { mapWebhookDelivery, mapWebhookDeliveryDetail } from './webhook-delivery.mapper';
import type { DeliveryListQuery } from './webhook-delivery.schemas';

@Injectable()
export class WebhookDeliveriesService {
  constructor(
    private readonly deliveries: WebhookDeliveryAdminRepository,
    private readonly attempts: WebhookDeliveryAttemptRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly deliveryQueue: DeliveryQueue,
  ) {}

  /** Newest first, keyset-paginated so pages stay stable while deliveries keep arriving. */
  async list(principal: Principal, query: DeliveryListQuery) {
    const before = query.cursor ? keysetCursor.decode(query.cursor) : undefined;
    const rows = await this.deliveries.listOfTenant(
      principal.tenantId,
      {
        status: query.status,
        endpointId: query.endpointId,
        notificationTypeCode: query.notificationTypeCode,
        eventId: query.eventId,
        since: query.since === undefined ? undefined : new Date(query.since),
        until: query.until === undefined ? undefined : new Date(query.until),
        before,
      },
      query.limit + 1,
    );
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      items: page.map(mapWebhookDelivery),
      nextCursor:
        rows.length > query.limit && last
          ? keysetCursor.encode({ createdAt: last.createdAt, id: last.id })
          : null,
    };
  }

  async get(principal: Principal, deliveryId: string) {
    const delivery = await this.deliveries.findOfTenant(principal.tenantId, deliveryId);
    if (!delivery) throw webhookDeliveryNotFound(deliveryId);
    const [attempts, forAttempt] = await Promise.all([
      this.deliveries.listAttempts(delivery.id),
      this.attempts.findForAttempt(delivery.id),
    ]);
    const body = forAttempt?.event ? webhookBody(forAttempt, forAttempt.event).body : null;
    return mapWebhookDeliveryDetail(delivery, attempts, body);
  }

  /**
   * Sends a finished delivery, or one waiting for a later attempt, again now, with a fresh retry
   * schedule and the same webhook-id.
   */
  async retry(principal: Principal, deliveryId: string) {
    const delivery = await this.unitOfWork.run(async ({ manager }) => {
      const locked = await this.deliveries.lockOfTenant(manager, principal.tenantId, deliveryId);
      if (!locked) throw webhookDeliveryNotFound(deliveryId);
      const endpoint = await this.endpoints.getById(manager, locked.endpointId);
      const refusal = retryRefusal(locked, endpoint, new Date());
      if (refusal === 'delivery_in_progress') throw webhookDeliveryInProgress(deliveryId);
      if (refusal === 'endpoint_disabled') throw webhookEndpointDisabled(endpoint.id);
      await this.deliveries.requeue(manager, principal.tenantId, [locked.id]);
      // Read again as the requeue left it: the answer shows the delivery on its way.
      const requeued = await this.deliveries.lockOfTenant(manager, principal.tenantId, locked.id);
      if (!requeued) throw webhookDeliveryNotFound(deliveryId);
      return requeued;
    });
    await this.deliveryQueue.enqueueNow([delivery.id]);
    return mapWebhookDelivery(delivery);
  }
}
