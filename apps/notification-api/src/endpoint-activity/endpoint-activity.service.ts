import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '@fincore/events';
import {
  receivesDeliveries,
  WebhookDeliveryAdminRepository,
  WebhookDeliveryFanOutRepository,
  WebhookEndpointRepository,
} from '@fincore/notifications';
import { Principal } from '@fincore/platform';
import {
  webhookDeliveryNotFound,
  webhookEndpointDisabled,
  webhookEndpointNotFound,
} from '../common/notification.problems';
import { DeliveryQueue } from '../webhook-deliveries/delivery-queue';
import { mapWebhookDelivery } from '../webhook-deliveries/webhook-delivery.mapper';
import { hoursOf, type StatsWindow, windowStart } from './domain/stats-window';
import { mapEndpointDeliveryStats, mapEndpointHealthList } from './endpoint-activity.mapper';

export const TEST_MESSAGE = 'A test event from fincore: your endpoint receives and verifies webhooks.';

/**
 * What endpoints have been receiving (one endpoint's deliveries per hour, every endpoint's last day
 * in figures), and a test event on request.
 */
@Injectable()
export class EndpointActivityService {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryAdminRepository,
    private readonly fanOut: WebhookDeliveryFanOutRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly deliveryQueue: DeliveryQueue,
  ) {}

  /**
   * A WEBHOOK_TEST event and its one delivery, to this endpoint only, committed together; sent,
   * signed and recorded like any delivery. No tenant subscribes to the type, so its fan-out
   * creates nothing more.
   */
  async sendTest(principal: Principal, endpointId: string) {
    const deliveryId = await this.unitOfWork.run(async (tx) => {
      const endpoint = await this.endpoints.lockOfTenant(tx.manager, principal.tenantId, endpointId);
      if (!endpoint) throw webhookEndpointNotFound(endpointId);
      if (!receivesDeliveries(endpoint)) throw webhookEndpointDisabled(endpoint.id);
      const event = await tx.emit('WEBHOOK_TEST', principal.tenantCode, {
        endpointId: endpoint.id,
        message: TEST_MESSAGE,
      });
      return this.fanOut.createForEndpoint(tx.manager, {
        tenantId: principal.tenantId,
        endpointId: endpoint.id,
        eventId: event.id,
        type: event.type,
        occurredAt: new Date(event.occurredAt),
      });
    });
    await this.deliveryQueue.enqueueNow([deliveryId]);
    const delivery = await this.deliveries.findOfTenant(principal.tenantId, deliveryId);
    if (!delivery) throw webhookDeliveryNotFound(deliveryId);
    return mapWebhookDelivery(delivery);
  }

  async stats(principal: Principal, endpointId: string, window: StatsWindow) {
    const endpoint = await this.endpoints.findOfTenant(principal.tenantId, endpointId);
    if (!endpoint) throw webhookEndpointNotFound(endpointId);
    const hours = await this.deliveries.countPerHourOfEndpoint(
      principal.tenantId,
      endpoint.id,
      new Date(),
      hoursOf(window),
    );
    return mapEndpointDeliveryStats(endpoint.id, window, hours);
  }

  /** Every endpoint's last 24 hours, the window the 24h statistics cover. */
  async health(principal: Principal) {
    const from = windowStart('24h', new Date());
    return mapEndpointHealthList(from, await this.deliveries.healthOfTenant(principal.tenantId, from));
  }
}
