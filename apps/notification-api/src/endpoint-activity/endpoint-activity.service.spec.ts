import {
  WebhookDeliveryAdminRepository,
  WebhookDeliveryFanOutRepository,
  WebhookEndpointRepository,
} from '@fincore/notifications';
import type { Principal } from '@fincore/platform';
import { aWebhookDelivery, aWebhookEndpoint } from '@test/support/builders/notifications';
import { newDouble } from '@test/support/doubles';
import { newUnitOfWork, type TransactionDouble } from '@test/support/unit-of-work-double';
import { DeliveryQueue } from '../webhook-deliveries/delivery-queue';
import { EndpointActivityService, TEST_MESSAGE } from './endpoint-activity.service';

const principal: Principal = { tokenId: 't', tenantId: 'tenant-1', tenantCode: 'ACME', scopes: [] };

describe('EndpointActivityService', () => {
  let endpoints: jest.Mocked<WebhookEndpointRepository>;
  let deliveries: jest.Mocked<WebhookDeliveryAdminRepository>;
  let fanOut: jest.Mocked<WebhookDeliveryFanOutRepository>;
  let deliveryQueue: jest.Mocked<DeliveryQueue>;
  let tx: TransactionDouble;
  let sut: EndpointActivityService;

  beforeEach(() => {
    endpoints = newDouble<WebhookEndpointRepository>();
    deliveries = newDouble<WebhookDeliveryAdminRepository>();
    fanOut = newDouble<WebhookDeliveryFanOutRepository>();
    deliveryQueue = newDouble<DeliveryQueue>();
    const unitOfWork = newUnitOfWork();
    tx = unitOfWork.tx;
    sut = new EndpointActivityService(endpoints, deliveries, fanOut, unitOfWork.uow, deliveryQueue);
  });

  describe('stats', () => {
    it("counts the window's hours of the tenant's endpoint", async () => {
      const endpoint = aWebhookEndpoint({ tenantId: 'tenant-1' });
      endpoints.findOfTenant.mockResolvedValue(endpoint);
      const hour = new Date('2026-01-15T10:00:00Z');
      deliveries.countPerHourOfEndpoint.mockResolvedValue([{ hour, succeeded: 2, failed: 1, pending: 0 }]);

      const stats = await sut.stats(principal, endpoint.id, '7d');

      expect(deliveries.countPerHourOfEndpoint).toHaveBeenCalledWith(
        'tenant-1',
        endpoint.id,
        expect.any(Date),
        168,
      );
      expect(stats).toMatchObject({
        from: '2026-01-15T10:00:00.000Z',
        until: '2026-01-15T11:00:00.000Z',
        total: { succeeded: 2, failed: 1, pending: 0 },
      });
    });

    it("answers 404 for an unknown endpoint or another tenant's", async () => {
      endpoints.findOfTenant.mockResolvedValue(null);
      await expect(sut.stats(principal, 'id', '24h')).rejects.toMatchObject({
        code: 'webhook_endpoint_not_found',
      });
      expect(deliveries.countPerHourOfEndpoint).not.toHaveBeenCalled();
    });
  });

  describe('health', () => {
    it("reads the tenant's endpoints over the 24h statistics' window", async () => {
      deliveries.healthOfTenant.mockResolvedValue([
        { endpointId: 'e-1', succeeded: 3, failed: 1, pending: 0, p95DurationMs: 120 },
      ]);

      const health = await sut.health(principal);

      const [tenantId, from] = deliveries.healthOfTenant.mock.calls[0];
      expect(tenantId).toBe('tenant-1');
      expect(from.getTime() % 3_600_000).toBe(0);
      expect(health).toEqual({
        window: '24h',
        from: from.toISOString(),
        until: new Date(from.getTime() + 24 * 3_600_000).toISOString(),
        items: [
          { endpointId: 'e-1', deliveries: { succeeded: 3, failed: 1, pending: 0 }, p95DurationMs: 120 },
        ],
      });
    });
  });

  describe('sendTest', () => {
    it('emits a WEBHOOK_TEST event with one delivery to the endpoint, then enqueues it', async () => {
      const endpoint = aWebhookEndpoint({ tenantId: 'tenant-1' });
      endpoints.lockOfTenant.mockResolvedValue(endpoint);
      tx.emit.mockResolvedValue({
        id: 'event-1',
        type: 'WEBHOOK_TEST',
        occurredAt: '2026-01-15T10:00:00.000Z',
      });
      fanOut.createForEndpoint.mockResolvedValue('delivery-1');
      deliveries.findOfTenant.mockResolvedValue(
        aWebhookDelivery({ id: 'delivery-1', endpointId: endpoint.id }),
      );

      const sent = await sut.sendTest(principal, endpoint.id);

      expect(tx.emit).toHaveBeenCalledWith('WEBHOOK_TEST', 'ACME', {
        endpointId: endpoint.id,
        message: TEST_MESSAGE,
      });
      expect(fanOut.createForEndpoint).toHaveBeenCalledWith(tx.manager, {
        tenantId: 'tenant-1',
        endpointId: endpoint.id,
        eventId: 'event-1',
        type: 'WEBHOOK_TEST',
        occurredAt: new Date('2026-01-15T10:00:00.000Z'),
      });
      expect(deliveryQueue.enqueueNow).toHaveBeenCalledWith(['delivery-1']);
      expect(sent.id).toBe('delivery-1');
    });

    it('refuses an unknown or disabled endpoint, emitting nothing', async () => {
      endpoints.lockOfTenant.mockResolvedValueOnce(null);
      await expect(sut.sendTest(principal, 'id')).rejects.toMatchObject({
        code: 'webhook_endpoint_not_found',
      });
      endpoints.lockOfTenant.mockResolvedValueOnce(aWebhookEndpoint({ status: 'DISABLED' }));
      await expect(sut.sendTest(principal, 'id')).rejects.toMatchObject({
        code: 'webhook_endpoint_disabled',
      });
      expect(tx.emit).not.toHaveBeenCalled();
      expect(fanOut.createForEndpoint).not.toHaveBeenCalled();
      expect(deliveryQueue.enqueueNow).not.toHaveBeenCalled();
    });
  });
});
