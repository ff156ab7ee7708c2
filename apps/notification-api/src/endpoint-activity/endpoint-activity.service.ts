import { Injectable } from '@nestjs/common';
import { WebhookDeliveryAdminRepository, WebhookEndpointRepository } from '@fincore/notifications';
import { Principal } from '@fincore/platform';
import { webhookEndpointNotFound } from '../common/notification.problems';
import { hoursOf, type StatsWindow } from './domain/stats-window';
import { mapEndpointDeliveryStats } from './endpoint-activity.mapper';

/** What an endpoint has been receiving: its deliveries per hour. */
@Injectable()
export class EndpointActivityService {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryAdminRepository,
  ) {}

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
}
