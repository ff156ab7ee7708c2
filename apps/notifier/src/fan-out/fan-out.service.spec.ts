import type { Queue } from 'bullmq';
import type { WebhookDeliveryJob } from '@fincore/events';
import { WebhookDeliveryRepository } from '@fincore/notifications';
import { newDouble } from '../../../../test/support/doubles';
import { TenantPriority } from '../fairness/tenant-priority';
import { newNotifierMetricsDouble } from '../metrics/notifier-metrics.fixtures';
import { FanOutService } from './fan-out.service';

describe('FanOutService', () => {
  let deliveries: jest.Mocked<WebhookDeliveryRepository>;
  let queue: jest.Mocked<Queue<WebhookDeliveryJob>>;
  let metrics: ReturnType<typeof newNotifierMetricsDouble>;
  let sut: FanOutService;

  beforeEach(() => {
    deliveries = newDouble<WebhookDeliveryRepository>();
    queue = newDouble<Queue<WebhookDeliveryJob>>();
    metrics = newNotifierMetricsDouble();
    const priority = newDouble<TenantPriority>();
    priority.of.mockResolvedValue(2);
    priority.ofAll.mockImplementation(async (ids) => new Map(ids.map((id) => [id, 2])));
    sut = new FanOutService(deliveries, queue, metrics, priority);
  });

  describe('handle', () => {
    it("adds one job per delivery it created, in one bulk add, at its tenant's priority", async () => {
      const now = new Date();
      deliveries.claimEventAndCreateDeliveries.mockResolvedValue([
        { id: 'd1', tenantId: 't1', nextAttemptAt: now, notificationTypeCode: 'PERSON_UPDATED' },
        { id: 'd2', tenantId: 't1', nextAttemptAt: now, notificationTypeCode: 'PERSON_UPDATED' },
      ]);

      expect(await sut.handle('event-1')).toBe(2);

      expect(deliveries.claimEventAndCreateDeliveries).toHaveBeenCalledWith('event-1', expect.any(Date));
      expect(queue.addBulk).toHaveBeenCalledTimes(1);
      expect(queue.addBulk.mock.calls[0][0].map((job) => job.opts?.jobId)).toEqual(['d1', 'd2']);
      expect(queue.addBulk.mock.calls[0][0].map((job) => job.opts?.priority)).toEqual([2, 2]);
      expect(metrics.fannedOut.inc).toHaveBeenCalledWith({ type: 'PERSON_UPDATED' }, 2);
      expect(deliveries.findPendingForEvent).not.toHaveBeenCalled();
    });

    it('enqueues the pending deliveries of an event seen before, at their due time', async () => {
      const due = new Date(Date.now() + 60_000);
      deliveries.claimEventAndCreateDeliveries.mockResolvedValue([]);
      deliveries.findPendingForEvent.mockResolvedValue([{ id: 'd1', tenantId: 't1', nextAttemptAt: due }]);
      queue.getJob.mockResolvedValue(undefined);

      expect(await sut.handle('event-1')).toBe(1);

      expect(queue.add).toHaveBeenCalledWith(
        'deliver',
        { deliveryId: 'd1' },
        expect.objectContaining({ jobId: 'd1', delay: expect.any(Number), priority: 2 }),
      );
      expect(queue.add.mock.calls[0][2]!.delay).toBeGreaterThan(50_000);
      expect(queue.addBulk).not.toHaveBeenCalled();
    });

    it('answers 0 for an event that is not in the outbox, or that nobody subscribes to', async () => {
      deliveries.claimEventAndCreateDeliveries.mockResolvedValue([]);
      deliveries.findPendingForEvent.mockResolvedValueOnce(undefined).mockResolvedValueOnce([]);

      expect(await sut.handle('event-1')).toBe(0);
      expect(await sut.handle('event-1')).toBe(0);
      expect(queue.add).not.toHaveBeenCalled();
    });
  });
});
