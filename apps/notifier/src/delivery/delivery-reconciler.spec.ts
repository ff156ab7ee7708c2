import type { Queue } from 'bullmq';
import type { WebhookDeliveryJob } from '@fincore/events';
import { WebhookDeliveryAdminRepository } from '@fincore/notifications';
import { TenantPriority } from '../fairness/tenant-priority';
import type { AppConfig } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import { newNotifierMetricsDouble } from '@test/support/fixtures/notifier-metrics';
import { DeliveryReconciler } from './delivery-reconciler';

const pending = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    id: `d${from + i}`,
    tenantId: 'tenant-1',
    nextAttemptAt: null,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, from + i)),
  }));

describe('DeliveryReconciler', () => {
  let deliveries: jest.Mocked<WebhookDeliveryAdminRepository>;
  let queue: jest.Mocked<Queue<WebhookDeliveryJob>>;
  let metrics: ReturnType<typeof newNotifierMetricsDouble>;
  let sut: DeliveryReconciler;

  beforeEach(() => {
    metrics = newNotifierMetricsDouble();
    deliveries = newDouble<WebhookDeliveryAdminRepository>();
    queue = newDouble<Queue<WebhookDeliveryJob>>();
    const priority = newDouble<TenantPriority>();
    priority.ofAll.mockImplementation(async (ids) => new Map(ids.map((id) => [id, 3])));
    sut = new DeliveryReconciler(
      deliveries,
      queue,
      { RECONCILE_INTERVAL_MS: 1000, WEBHOOK_TIMEOUT_MS: 3000 } as AppConfig,
      priority,
      metrics,
    );
  });

  describe('onApplicationBootstrap', () => {
    afterEach(async () => {
      await sut.onApplicationShutdown();
      jest.useRealTimers();
    });

    it('reconciles once at start-up, then every interval', async () => {
      jest.useFakeTimers();
      deliveries.pagePending.mockResolvedValue([]);
      sut.onApplicationBootstrap();
      expect(deliveries.pagePending).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(999);
      expect(deliveries.pagePending).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(deliveries.pagePending).toHaveBeenCalledTimes(2);
    });
  });

  describe('reconcile', () => {
    it('pages through every pending delivery and re-creates the jobs that are missing', async () => {
      deliveries.pagePending.mockResolvedValueOnce(pending(500)).mockResolvedValueOnce(pending(2, 500));
      queue.getJob.mockImplementation(async (id) =>
        id === 'd0' ? ({ getState: async () => 'waiting' } as never) : undefined,
      );

      const before = Date.now();
      expect(await sut.reconcile()).toBe(501);
      expect(metrics.deliveryJobsRecreated.inc).toHaveBeenCalledWith(501);
      expect(queue.add).toHaveBeenCalledWith(
        'deliver',
        { deliveryId: 'd1' },
        expect.objectContaining({ priority: 3 }),
      );

      expect(deliveries.pagePending).toHaveBeenCalledTimes(2);
      expect(deliveries.pagePending.mock.calls[0]).toEqual([
        { createdAt: new Date(0), id: '00000000-0000-0000-0000-000000000000' },
        500,
        expect.any(Date),
      ]);
      // A delivery never attempted is left to its first attempt for twice the attempt timeout.
      const firstAttemptsSince = deliveries.pagePending.mock.calls[0][2].getTime();
      expect(firstAttemptsSince).toBeGreaterThanOrEqual(before - 6000);
      expect(firstAttemptsSince).toBeLessThanOrEqual(Date.now() - 6000);
      expect(deliveries.pagePending.mock.calls[1][0]).toEqual({
        createdAt: pending(1, 499)[0].createdAt,
        id: 'd499',
      });
    });

    it('stops at an empty page', async () => {
      deliveries.pagePending.mockResolvedValue([]);

      expect(await sut.reconcile()).toBe(0);
      expect(queue.add).not.toHaveBeenCalled();
      expect(metrics.deliveryJobsRecreated.inc).not.toHaveBeenCalled();
    });
  });
});
