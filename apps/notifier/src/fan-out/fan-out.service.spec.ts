import type { Queue } from 'bullmq';
import type { WebhookDeliveryJob } from '@fincore/events';
import { CreatedDelivery, DeliveryForAttempt, WebhookDeliveryFanOutRepository } from '@fincore/notifications';
import type { AppConfig } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import { AttemptFollowUp } from '../delivery/attempt-follow-up';
import { DeliveryService } from '../delivery/delivery.service';
import { TenantPriority } from '../fairness/tenant-priority';
import { newNotifierMetricsDouble } from '@test/support/fixtures/notifier-metrics';
import { FanOutService } from './fan-out.service';

describe('FanOutService', () => {
  let deliveries: jest.Mocked<WebhookDeliveryFanOutRepository>;
  let queue: jest.Mocked<Queue<WebhookDeliveryJob>>;
  let metrics: ReturnType<typeof newNotifierMetricsDouble>;
  let delivery: jest.Mocked<DeliveryService>;
  let priority: jest.Mocked<TenantPriority>;
  let sut: FanOutService;

  const newSut = (concurrency: number) => {
    priority = newDouble<TenantPriority>();
    priority.of.mockResolvedValue(2);
    priority.ofAll.mockImplementation(async (ids) => new Map(ids.map((id) => [id, 2])));
    return new FanOutService(deliveries, queue, metrics, priority, delivery, new AttemptFollowUp(queue), {
      WEBHOOK_CONCURRENCY: concurrency,
      WEBHOOK_TIMEOUT_MS: 2000,
    } as AppConfig);
  };
  const created = (id: string): CreatedDelivery => ({
    id,
    tenantId: 't1',
    nextAttemptAt: new Date(),
    notificationTypeCode: 'PERSON_UPDATED',
    forAttempt: { id } as DeliveryForAttempt,
  });

  /** Holds the next first attempt until the answer is called. */
  const holdFirstAttempt = () => {
    let finish!: () => void;
    delivery.attemptRead.mockReturnValueOnce(
      new Promise((resolve) => (finish = () => resolve({ kind: 'done' }))),
    );
    return () => finish();
  };
  const flushPromises = () => new Promise((resolve) => setImmediate(resolve));

  beforeEach(() => {
    deliveries = newDouble<WebhookDeliveryFanOutRepository>();
    queue = newDouble<Queue<WebhookDeliveryJob>>();
    metrics = newNotifierMetricsDouble();
    delivery = newDouble<DeliveryService>();
    delivery.attemptRead.mockResolvedValue({ kind: 'done' });
    queue.getJob.mockResolvedValue(undefined);
    sut = newSut(2);
  });

  describe('handle', () => {
    it('attempts the deliveries it created at once, from what the fan-out read, without jobs', async () => {
      deliveries.claimEventAndCreateDeliveries.mockResolvedValue([created('d1'), created('d2')]);

      expect(await sut.handle('event-1')).toBe(2);
      await sut.beforeApplicationShutdown();

      expect(deliveries.claimEventAndCreateDeliveries).toHaveBeenCalledWith('event-1', expect.any(Date));
      expect(delivery.attemptRead.mock.calls.map(([d]) => d.id)).toEqual(['d1', 'd2']);
      expect(queue.addBulk).not.toHaveBeenCalled();
      expect(queue.add).not.toHaveBeenCalled();
      expect(metrics.fannedOut.inc).toHaveBeenCalledWith({ type: 'PERSON_UPDATED' }, 2);
      expect(deliveries.findPendingForEvent).not.toHaveBeenCalled();
    });

    it("gives an ordered endpoint's deliveries jobs instead of first attempts, so each has one attempt at a time", async () => {
      const ordered = (id: string): CreatedDelivery => ({
        ...created(id),
        forAttempt: {
          id,
          chain: { endpointId: 'e-ordered', subjectType: 'person', subjectId: 'p-1', sequence: 2 },
        } as DeliveryForAttempt,
      });
      deliveries.claimEventAndCreateDeliveries.mockResolvedValue([created('d1'), ordered('d2')]);

      expect(await sut.handle('event-1')).toBe(2);
      await sut.beforeApplicationShutdown();

      expect(delivery.attemptRead.mock.calls.map(([d]) => d.id)).toEqual(['d1']);
      expect(queue.addBulk.mock.calls.map(([jobs]) => jobs.map((job) => job.opts?.jobId))).toEqual([['d2']]);
    });

    it('claims the events that arrive while a claim runs in one statement; one it did not take, on its own', async () => {
      let finishFirst!: () => void;
      deliveries.claimEventAndCreateDeliveries
        .mockReturnValueOnce(new Promise((resolve) => (finishFirst = () => resolve([created('d1')]))))
        .mockResolvedValueOnce([created('d4')]);
      deliveries.claimEventsAlone.mockResolvedValue([[created('d2')], [], undefined]);

      const handled = ['event-1', 'event-2', 'event-3', 'event-4'].map((id) => sut.handle(id));
      finishFirst();

      expect(await Promise.all(handled)).toEqual([1, 1, 0, 1]);
      expect(deliveries.claimEventsAlone).toHaveBeenCalledWith(
        ['event-2', 'event-3', 'event-4'],
        expect.any(Date),
      );
      expect(deliveries.claimEventAndCreateDeliveries.mock.calls.map(([id]) => id)).toEqual([
        'event-1',
        'event-4',
      ]);
    });

    it("starts all of an event's first attempts while fewer events than WEBHOOK_CONCURRENCY have some under way", async () => {
      const finish = holdFirstAttempt();
      deliveries.claimEventAndCreateDeliveries
        .mockResolvedValueOnce([created('d1')])
        .mockResolvedValueOnce([created('d2'), created('d3'), created('d4')]);

      await sut.handle('event-1');
      expect(await sut.handle('event-2')).toBe(3);
      finish();
      await sut.beforeApplicationShutdown();

      expect(delivery.attemptRead.mock.calls.map(([d]) => d.id)).toEqual(['d1', 'd2', 'd3', 'd4']);
      expect(queue.addBulk).not.toHaveBeenCalled();
    });

    it("queues in one bulk add, at its tenant's priority, an event's deliveries once that many events have attempts under way", async () => {
      const [finish1, finish2] = [holdFirstAttempt(), holdFirstAttempt()];
      deliveries.claimEventAndCreateDeliveries
        .mockResolvedValueOnce([created('d1')])
        .mockResolvedValueOnce([created('d2')])
        .mockResolvedValueOnce([created('d3'), created('d4')]);

      await sut.handle('event-1');
      await sut.handle('event-2');
      expect(await sut.handle('event-3')).toBe(2);
      finish1();
      finish2();
      await sut.beforeApplicationShutdown();

      expect(delivery.attemptRead.mock.calls.map(([d]) => d.id)).toEqual(['d1', 'd2']);
      expect(queue.addBulk).toHaveBeenCalledTimes(1);
      expect(queue.addBulk.mock.calls[0][0].map((job) => job.opts?.jobId)).toEqual(['d3', 'd4']);
      expect(queue.addBulk.mock.calls[0][0].map((job) => job.opts?.priority)).toEqual([2, 2]);
      // What it created counts into its tenant's backlog before the next count.
      expect(priority.of.mock.calls).toEqual([
        ['t1', 1],
        ['t1', 1],
        ['t1', 2],
      ]);
    });

    it("sorts the jobs of an event that came in a burst no earlier than the burst's own", async () => {
      sut = newSut(0);
      deliveries.claimEventAndCreateDeliveries
        .mockResolvedValueOnce([created('d1')])
        .mockResolvedValueOnce([created('d2')]);

      await sut.handle('event-1', 8);
      await sut.handle('event-2', 1);

      // The tenant's backlog says 2: the burst's 8 wins for the first, the backlog for the other.
      expect(queue.addBulk.mock.calls.map(([jobs]) => jobs[0].opts?.priority)).toEqual([8, 2]);
    });

    it('lets a tenant with twice the slots of deliveries waiting hold only half of the slots', async () => {
      sut = newSut(4);
      const finishers = [holdFirstAttempt(), holdFirstAttempt(), holdFirstAttempt()];
      deliveries.claimEventAndCreateDeliveries.mockImplementation(async (eventId) => [
        created(`d-${eventId}`),
      ]);
      priority.of.mockResolvedValue(8); // 127 to 254 pending: more than 2 x 4 slots x 1 endpoint

      await sut.handle('flood-1');
      await sut.handle('flood-2');
      await sut.handle('flood-3');
      priority.of.mockResolvedValue(2);
      await sut.handle('quiet-1');
      for (const finish of finishers) finish();
      await sut.beforeApplicationShutdown();

      expect(delivery.attemptRead.mock.calls.map(([d]) => d.id)).toEqual([
        'd-flood-1',
        'd-flood-2',
        'd-quiet-1',
      ]);
      expect(queue.addBulk.mock.calls.map(([jobs]) => jobs[0].opts?.jobId)).toEqual(['d-flood-3']);
    });

    it('takes an event off the events under way once all of its first attempts finished', async () => {
      const finish = holdFirstAttempt();
      deliveries.claimEventAndCreateDeliveries
        .mockResolvedValueOnce([created('d1'), created('d2')])
        .mockResolvedValueOnce([created('d3')])
        .mockResolvedValueOnce([created('d4')]);

      await sut.handle('event-1');
      await sut.handle('event-2');
      await flushPromises();
      await sut.handle('event-3');
      finish();
      await sut.beforeApplicationShutdown();

      // event-1 still waits for d1, event-2 is done: event-3 may start.
      expect(delivery.attemptRead.mock.calls.map(([d]) => d.id)).toEqual(['d1', 'd2', 'd3', 'd4']);
      expect(queue.addBulk).not.toHaveBeenCalled();
    });

    it('queues a first attempt that must wait at its time, and one that failed unrecorded at once', async () => {
      const at = new Date(Date.now() + 60_000);
      delivery.attemptRead
        .mockResolvedValueOnce({ kind: 'run_at', at })
        .mockRejectedValueOnce(new Error('database away'));
      deliveries.claimEventAndCreateDeliveries.mockResolvedValue([created('d1'), created('d2')]);

      await sut.handle('event-1');
      await sut.beforeApplicationShutdown();

      const added = new Map(queue.add.mock.calls.map(([, data, opts]) => [data.deliveryId, opts!]));
      expect(added.get('d1')).toEqual(expect.objectContaining({ jobId: 'd1', priority: 2 }));
      expect(added.get('d1')!.delay).toBeGreaterThan(50_000);
      expect(added.get('d2')).toEqual(expect.objectContaining({ jobId: 'd2', delay: 0, priority: 2 }));
    });

    it('wakes the next delivery of the chain a first attempt finished', async () => {
      delivery.attemptRead.mockResolvedValue({ kind: 'done', wake: { id: 'd9', nextAttemptAt: null } });
      deliveries.claimEventAndCreateDeliveries.mockResolvedValue([created('d1')]);

      await sut.handle('event-1');
      await sut.beforeApplicationShutdown();

      expect(queue.add).toHaveBeenCalledWith(
        'deliver',
        { deliveryId: 'd9' },
        expect.objectContaining({ jobId: 'd9', delay: 0 }),
      );
    });

    it('queues every delivery once the app is closing', async () => {
      await sut.beforeApplicationShutdown();
      deliveries.claimEventAndCreateDeliveries.mockResolvedValue([created('d1')]);

      await sut.handle('event-1');

      expect(delivery.attemptRead).not.toHaveBeenCalled();
      expect(queue.addBulk.mock.calls[0][0].map((job) => job.opts?.jobId)).toEqual(['d1']);
    });

    it('enqueues the pending deliveries of an event seen before, at their due time', async () => {
      const due = new Date(Date.now() + 60_000);
      deliveries.claimEventAndCreateDeliveries.mockResolvedValue([]);
      deliveries.findPendingForEvent.mockResolvedValue([{ id: 'd1', tenantId: 't1', nextAttemptAt: due }]);

      const before = Date.now();
      expect(await sut.handle('event-1')).toBe(1);

      // First attempts started at fan-out within 2 x WEBHOOK_TIMEOUT_MS may be under way elsewhere: not asked for.
      const [, since] = deliveries.findPendingForEvent.mock.calls[0];
      expect(since.getTime()).toBeGreaterThanOrEqual(before - 4000);
      expect(since.getTime()).toBeLessThanOrEqual(Date.now() - 4000);
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
