import { OutboxEventEntity, UnitOfWork } from '@fincore/events';
import {
  AttemptRecord,
  DeliveryForAttempt,
  DeliveryStatus,
  WebhookDeliveryAdminRepository,
  WebhookEndpointRepository,
} from '@fincore/notifications';
import type { AppConfig } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import { newUnitOfWork, TransactionDouble } from '@test/support/unit-of-work-double';
import { EndpointHealth } from './endpoint-health';

const now = new Date('2026-03-10T12:00:00Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600 * 1000);
const delivery = (type = 'PERSON_UPDATED', failingNotifiedAt: Date | null = null) =>
  ({
    id: 'delivery-1',
    endpointId: 'endpoint-1',
    eventId: 'event-1',
    endpoint: { url: 'https://hooks.example.com/a', failingNotifiedAt },
    event: Object.assign(new OutboxEventEntity(), { id: 'event-1', type, tenantCode: 'ACME' }),
  }) as DeliveryForAttempt;
const attempt = (status: DeliveryStatus, statusCode: number | null = 500) =>
  ({ finishedAt: now, statusCode, error: `HTTP ${statusCode}`, status }) as AttemptRecord;
const pending = { cycleAttempts: 2, attemptCount: 3, status: DeliveryStatus.Pending };

describe('EndpointHealth', () => {
  let endpoints: jest.Mocked<WebhookEndpointRepository>;
  let admin: jest.Mocked<WebhookDeliveryAdminRepository>;
  let uow: jest.Mocked<UnitOfWork>;
  let tx: TransactionDouble;
  let sut: EndpointHealth;

  beforeEach(() => {
    endpoints = newDouble<WebhookEndpointRepository>();
    admin = newDouble<WebhookDeliveryAdminRepository>();
    ({ uow, tx } = newUnitOfWork());
    sut = new EndpointHealth(endpoints, admin, uow, { WEBHOOK_DISABLE_AFTER_HOURS: 10 } as AppConfig);
  });
  const streak = (failingSince: Date, failingNotifiedAt: Date | null = null) =>
    endpoints.markFailing.mockResolvedValue({ status: 'ACTIVE', failingSince, failingNotifiedAt });
  const emitted = () => tx.emit.mock.calls.map(([type, tenant, data]) => ({ type, tenant, data }));

  describe('afterFailure', () => {
    it('disables on 410 and emits WEBHOOK_ENDPOINT_DISABLED only when it did the disabling', async () => {
      streak(hoursAgo(0));
      endpoints.disableIfActive.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
      const gone = attempt(DeliveryStatus.Failed, 410);

      await sut.afterFailure(tx, delivery(), { kind: 'endpoint_gone' }, gone, pending);
      await sut.afterFailure(tx, delivery(), { kind: 'endpoint_gone' }, gone, pending);

      expect(admin.failPendingOfEndpoint).toHaveBeenCalledTimes(2);
      expect(emitted()).toEqual([
        {
          type: 'WEBHOOK_ENDPOINT_DISABLED',
          tenant: 'ACME',
          data: {
            endpointId: 'endpoint-1',
            url: 'https://hooks.example.com/a',
            reason: 'the receiver answered 410 Gone',
            disabledAt: now.toISOString(),
          },
        },
      ]);
    });

    it('reports a streak of half the period once, as the endpoint row records', async () => {
      streak(hoursAgo(6));
      endpoints.markFailingNotified.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
      const retry = { kind: 'retry', delayMs: 1000 } as const;

      await sut.afterFailure(tx, delivery(), retry, attempt(DeliveryStatus.Pending), pending);
      await sut.afterFailure(tx, delivery(), retry, attempt(DeliveryStatus.Pending), pending);

      expect(endpoints.markFailingNotified).toHaveBeenCalledWith(tx.manager, 'endpoint-1', now);
      expect(emitted()).toEqual([
        {
          type: 'WEBHOOK_ENDPOINT_FAILING',
          tenant: 'ACME',
          data: {
            endpointId: 'endpoint-1',
            url: 'https://hooks.example.com/a',
            failingSince: hoursAgo(6).toISOString(),
            disablesAt: hoursAgo(-4).toISOString(),
            lastError: 'HTTP 500',
          },
        },
      ]);
    });

    it('does not report a streak reported already, nor a short one', async () => {
      streak(hoursAgo(6), hoursAgo(1));
      await sut.afterFailure(
        tx,
        delivery(),
        { kind: 'retry', delayMs: 1 },
        attempt(DeliveryStatus.Pending),
        pending,
      );
      streak(hoursAgo(1));
      await sut.afterFailure(
        tx,
        delivery(),
        { kind: 'retry', delayMs: 1 },
        attempt(DeliveryStatus.Pending),
        pending,
      );

      expect(endpoints.markFailingNotified).not.toHaveBeenCalled();
      expect(tx.emit).not.toHaveBeenCalled();
    });

    it('reports a delivery whose schedule ran out, with this attempt counted', async () => {
      streak(hoursAgo(1));

      await sut.afterFailure(tx, delivery(), { kind: 'failed' }, attempt(DeliveryStatus.Failed), pending);

      expect(emitted()).toEqual([
        {
          type: 'WEBHOOK_DELIVERY_EXHAUSTED',
          tenant: 'ACME',
          data: {
            endpointId: 'endpoint-1',
            url: 'https://hooks.example.com/a',
            deliveryId: 'delivery-1',
            eventId: 'event-1',
            notificationTypeCode: 'PERSON_UPDATED',
            attemptCount: 4,
            lastStatusCode: 500,
            lastError: 'HTTP 500',
          },
        },
      ]);
    });

    it('does not report a delivery finished by someone else, nor one of an operational event', async () => {
      streak(hoursAgo(1));
      const failed = { ...pending, status: DeliveryStatus.Failed };

      await sut.afterFailure(tx, delivery(), { kind: 'failed' }, attempt(DeliveryStatus.Failed), failed);
      await sut.afterFailure(
        tx,
        delivery('WEBHOOK_DELIVERY_EXHAUSTED'),
        { kind: 'failed' },
        attempt(DeliveryStatus.Failed),
        pending,
      );

      expect(tx.emit).not.toHaveBeenCalled();
    });
  });

  describe('afterSuccess', () => {
    it('emits WEBHOOK_ENDPOINT_RECOVERED when it clears the mark of a reported streak', async () => {
      endpoints.clearFailingNotified.mockResolvedValueOnce(hoursAgo(2)).mockResolvedValueOnce(undefined);

      await sut.afterSuccess(delivery('PERSON_UPDATED', hoursAgo(2)), now);
      await sut.afterSuccess(delivery('PERSON_UPDATED', hoursAgo(2)), now);

      expect(emitted()).toEqual([
        {
          type: 'WEBHOOK_ENDPOINT_RECOVERED',
          tenant: 'ACME',
          data: {
            endpointId: 'endpoint-1',
            url: 'https://hooks.example.com/a',
            failingNotifiedAt: hoursAgo(2).toISOString(),
            recoveredAt: now.toISOString(),
          },
        },
      ]);
    });

    it('writes nothing after a success of an endpoint not reported as failing', async () => {
      await sut.afterSuccess(delivery(), now);

      expect(uow.run).not.toHaveBeenCalled();
    });
  });
});
