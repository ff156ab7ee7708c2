import type { EntityManager } from 'typeorm';
import type { UnitOfWork } from '@fincore/events';
import {
  WebhookDeliveryAdminRepository,
  WebhookDeliveryAttemptEntity,
  WebhookDeliveryAttemptRepository,
  WebhookEndpointRepository,
} from '@fincore/notifications';
import { keysetCursor, type Principal } from '@fincore/platform';
import { aWebhookDelivery, aWebhookEndpoint } from '@test/support/builders/notifications';
import { newDouble } from '@test/support/doubles';
import { newUnitOfWork } from '@test/support/unit-of-work-double';
import { DeliveryQueue } from './delivery-queue';
import { WebhookDeliveriesService } from './webhook-deliveries.service';

const principal: Principal = { tokenId: 't', tenantId: 'tenant-1', tenantCode: 'ACME', scopes: [] };

describe('WebhookDeliveriesService', () => {
  let deliveries: jest.Mocked<WebhookDeliveryAdminRepository>;
  let endpoints: jest.Mocked<WebhookEndpointRepository>;
  let manager: EntityManager;
  let unitOfWork: jest.Mocked<UnitOfWork>;
  let deliveryQueue: jest.Mocked<DeliveryQueue>;
  let sut: WebhookDeliveriesService;

  beforeEach(() => {
    deliveries = newDouble<WebhookDeliveryAdminRepository>();
    endpoints = newDouble<WebhookEndpointRepository>();
    manager = { transaction: true } as unknown as EntityManager;
    unitOfWork = newUnitOfWork(manager).uow;
    deliveryQueue = newDouble<DeliveryQueue>();
    sut = new WebhookDeliveriesService(
      deliveries,
      newDouble<WebhookDeliveryAttemptRepository>(),
      endpoints,
      unitOfWork,
      deliveryQueue,
    );
  });

  describe('list', () => {
    it('asks for one more than the page and answers a cursor to the last item when there is more', async () => {
      const page = [aWebhookDelivery(), aWebhookDelivery(), aWebhookDelivery()];
      deliveries.listOfTenant.mockResolvedValue(page);

      const result = await sut.list(principal, {
        limit: 2,
        status: 'FAILED',
        since: '2026-11-27T10:00:00+01:00',
      });

      expect(deliveries.listOfTenant).toHaveBeenCalledWith(
        'tenant-1',
        {
          status: 'FAILED',
          endpointId: undefined,
          notificationTypeCode: undefined,
          since: new Date('2026-11-27T09:00:00Z'),
          until: undefined,
          before: undefined,
        },
        3,
      );
      expect(result.items.map((d) => d.id)).toEqual([page[0].id, page[1].id]);
      expect(keysetCursor.decode(result.nextCursor!)).toEqual({
        createdAt: page[1].createdAt,
        id: page[1].id,
      });
    });

    it('continues after the cursor and answers no cursor on the last page', async () => {
      const position = {
        createdAt: new Date('2026-01-10T00:00:00Z'),
        id: '5d0c8a4e-3b1f-4f6a-9a0e-2c7b9e1d4f33',
      };
      deliveries.listOfTenant.mockResolvedValue([aWebhookDelivery()]);

      const result = await sut.list(principal, { limit: 2, cursor: keysetCursor.encode(position) });

      expect(deliveries.listOfTenant.mock.calls[0][1].before).toEqual(position);
      expect(result.nextCursor).toBeNull();
    });

    it('refuses a cursor it did not make', async () => {
      await expect(sut.list(principal, { limit: 2, cursor: 'garbage' })).rejects.toMatchObject({
        code: 'invalid_cursor',
        status: 400,
      });
      expect(deliveries.listOfTenant).not.toHaveBeenCalled();
    });
  });

  describe('get', () => {
    it('answers the delivery with its attempts', async () => {
      const delivery = aWebhookDelivery();
      deliveries.findOfTenant.mockResolvedValue(delivery);
      deliveries.listAttempts.mockResolvedValue([
        Object.assign(new WebhookDeliveryAttemptEntity(), {
          attemptNumber: 1,
          startedAt: new Date(0),
          durationMs: 5,
          statusCode: 500,
          outcome: 'FAILED',
          error: 'HTTP 500',
          responseExcerpt: null,
        }),
      ]);

      const detail = await sut.get(principal, delivery.id);

      expect(deliveries.findOfTenant).toHaveBeenCalledWith('tenant-1', delivery.id);
      expect(detail).toMatchObject({ id: delivery.id, attempts: [{ attemptNumber: 1, statusCode: 500 }] });
    });

    it("answers 404 for an unknown delivery or another tenant's", async () => {
      deliveries.findOfTenant.mockResolvedValue(null);
      await expect(sut.get(principal, 'id')).rejects.toMatchObject({ code: 'webhook_delivery_not_found' });
    });
  });

  describe('retry', () => {
    it('puts a finished delivery back to pending with a fresh cycle, then enqueues it', async () => {
      const delivery = aWebhookDelivery({ status: 'FAILED', cycleAttempts: 4, nextAttemptAt: null });
      const requeued = aWebhookDelivery({
        ...delivery,
        status: 'PENDING',
        cycleAttempts: 0,
        nextAttemptAt: new Date(),
      });
      deliveries.lockOfTenant.mockResolvedValueOnce(delivery).mockResolvedValueOnce(requeued);
      endpoints.getById.mockResolvedValue(aWebhookEndpoint({ id: delivery.endpointId }));
      deliveries.requeue.mockResolvedValue([delivery.id]);

      const response = await sut.retry(principal, delivery.id);

      expect(deliveries.lockOfTenant).toHaveBeenCalledWith(manager, 'tenant-1', delivery.id);
      // What the requeue writes (PENDING, a fresh cycle, due now) is the repository's to show.
      expect(deliveries.requeue).toHaveBeenCalledWith(manager, 'tenant-1', [delivery.id]);
      expect(deliveryQueue.enqueueNow).toHaveBeenCalledWith([delivery.id]);
      expect(response.status).toBe('PENDING');
    });

    it('sends a pending delivery that waits for a later attempt now', async () => {
      const waiting = aWebhookDelivery({
        status: 'PENDING',
        nextAttemptAt: new Date(Date.now() + 3_600_000),
      });
      deliveries.lockOfTenant.mockResolvedValueOnce(waiting).mockResolvedValueOnce(waiting);
      endpoints.getById.mockResolvedValue(aWebhookEndpoint({ id: waiting.endpointId }));
      deliveries.requeue.mockResolvedValue([waiting.id]);

      await sut.retry(principal, waiting.id);

      expect(deliveries.requeue).toHaveBeenCalledWith(manager, 'tenant-1', [waiting.id]);
      expect(deliveryQueue.enqueueNow).toHaveBeenCalledWith([waiting.id]);
    });

    it('refuses a pending delivery that is due (it may be under way) and one whose endpoint is disabled', async () => {
      deliveries.lockOfTenant.mockResolvedValueOnce(
        aWebhookDelivery({ status: 'PENDING', nextAttemptAt: new Date(Date.now() - 1000) }),
      );
      endpoints.getById.mockResolvedValue(aWebhookEndpoint());
      await expect(sut.retry(principal, 'id')).rejects.toMatchObject({
        code: 'webhook_delivery_in_progress',
      });

      deliveries.lockOfTenant.mockResolvedValueOnce(aWebhookDelivery({ status: 'FAILED' }));
      endpoints.getById.mockResolvedValue(aWebhookEndpoint({ status: 'DISABLED' }));
      await expect(sut.retry(principal, 'id')).rejects.toMatchObject({ code: 'webhook_endpoint_disabled' });

      expect(deliveries.requeue).not.toHaveBeenCalled();
      expect(deliveryQueue.enqueueNow).not.toHaveBeenCalled();
    });

    it('answers 404 for an unknown delivery', async () => {
      deliveries.lockOfTenant.mockResolvedValue(null);
      await expect(sut.retry(principal, 'id')).rejects.toMatchObject({ code: 'webhook_delivery_not_found' });
    });
  });
});
