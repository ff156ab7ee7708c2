import { Logger } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { AppConfig, MetricsService } from '@fincore/platform';
import { newDouble } from '../../../test/support/doubles';
import type { OutboxPublisher } from './outbox-publisher';
import { OutboxRelay } from './outbox-relay';
import type { OutboxListener, OutboxRepository } from './outbox.repository';
import type { DomainEventJob } from './queues';

/** Lets every already-resolved step of a drain run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('OutboxRelay', () => {
  let publisher: jest.Mocked<OutboxPublisher>;
  let outbox: jest.Mocked<OutboxRepository>;
  let queue: jest.Mocked<Queue<DomainEventJob>>;
  let listener: jest.Mocked<OutboxListener>;
  let sut: OutboxRelay;
  let metrics: MetricsService;
  const config = {
    DATABASE_URL: 'postgres://db/fincore',
    OUTBOX_POLL_MS: 600_000,
    RECONCILE_INTERVAL_MS: 600_000,
    OUTBOX_RECONCILE_GRACE_SECONDS: 30,
  } as AppConfig;

  beforeEach(() => {
    publisher = newDouble<OutboxPublisher>();
    outbox = newDouble<OutboxRepository>();
    queue = newDouble<Queue<DomainEventJob>>();
    listener = newDouble<OutboxListener>();
    outbox.listenForInserts.mockResolvedValue(listener);
    publisher.publishPending.mockResolvedValue(0);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    metrics = new MetricsService();
    sut = new OutboxRelay(publisher, outbox, queue, config, metrics);
  });
  afterEach(async () => {
    await sut.onApplicationShutdown();
    jest.restoreAllMocks();
    jest.useRealTimers();
  });

  describe('onApplicationBootstrap', () => {
    it('listens on the configured database and drains what is pending at once', async () => {
      await sut.onApplicationBootstrap();
      expect(outbox.listenForInserts).toHaveBeenCalledWith(config.DATABASE_URL, expect.any(Object));
      expect(publisher.publishPending).toHaveBeenCalledWith(200);
    });

    it('reconciles once at start-up, then every interval', async () => {
      jest.useFakeTimers();
      outbox.pagePublishedUnprocessed.mockResolvedValue([]);
      await sut.onApplicationBootstrap();
      expect(outbox.pagePublishedUnprocessed).toHaveBeenCalledTimes(1);
      expect(outbox.pagePublishedUnprocessed).toHaveBeenCalledWith(30, 1000, undefined);
      await jest.advanceTimersByTimeAsync(config.RECONCILE_INTERVAL_MS - 1);
      expect(outbox.pagePublishedUnprocessed).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(outbox.pagePublishedUnprocessed).toHaveBeenCalledTimes(2);
    });

    it('listens again a second after the connection is lost', async () => {
      jest.useFakeTimers();
      await sut.onApplicationBootstrap();
      const [, handlers] = outbox.listenForInserts.mock.calls[0];
      handlers.onLost(new Error('connection reset'));
      expect(outbox.listenForInserts).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(1000);
      expect(outbox.listenForInserts).toHaveBeenCalledTimes(2);
    });

    it('polls only, and retries listening after 5 seconds, when it cannot connect', async () => {
      jest.useFakeTimers();
      outbox.listenForInserts.mockRejectedValueOnce(new Error('refused'));
      await sut.onApplicationBootstrap();
      expect(publisher.publishPending).toHaveBeenCalled();
      await jest.advanceTimersByTimeAsync(4999);
      expect(outbox.listenForInserts).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(outbox.listenForInserts).toHaveBeenCalledTimes(2);
    });
  });

  describe('wake', () => {
    it('drains batch after batch while batches come back full', async () => {
      publisher.publishPending.mockResolvedValueOnce(200).mockResolvedValueOnce(200).mockResolvedValue(3);
      sut.wake();
      await settled();
      expect(publisher.publishPending).toHaveBeenCalledTimes(3);
    });

    it('drains once more when woken during a drain, not once per wake', async () => {
      let finish!: (n: number) => void;
      publisher.publishPending.mockReturnValueOnce(new Promise((resolve) => (finish = resolve)));
      sut.wake();
      sut.wake();
      sut.wake();
      finish(0);
      await settled();
      expect(publisher.publishPending).toHaveBeenCalledTimes(2);
    });
  });

  describe('reconcile', () => {
    const published = (id: string, secondsAgo = 60) => {
      const publishedAt = new Date(Date.now() - secondsAgo * 1000);
      return { id, tenantCode: 'ACME', publishedAt, position: publishedAt.toISOString(), traceContext: null };
    };
    const job = (id: string, state: string) => ({
      id,
      getState: jest.fn(async () => state),
      retry: jest.fn(),
    });
    const metric = async (name: string) =>
      (await metrics.registry.getSingleMetric(name)!.get()).values[0]?.value ?? 0;

    it('re-enqueues the published, unprocessed events whose jobs are gone, and only those, with their traces', async () => {
      const traced = { ...published('e-1'), traceContext: '{"traceparent":"00-…"}' };
      outbox.pagePublishedUnprocessed.mockResolvedValue([traced, published('e-2'), published('e-3')]);
      queue.getJob.mockImplementation(async (id) =>
        id === 'e-2' ? (job(id, 'waiting') as unknown as Job) : undefined,
      );
      expect(await sut.reconcile()).toBe(2);
      expect(outbox.pagePublishedUnprocessed).toHaveBeenCalledWith(30, 1000, undefined);
      expect(publisher.enqueue.mock.calls[0][0].map((e) => [e.id, e.traceContext])).toEqual([
        ['e-1', traced.traceContext],
        ['e-3', null],
      ]);
    });

    it('retries the jobs that ran out of attempts, and leaves the others alone', async () => {
      const failed = job('e-1', 'failed');
      const delayed = job('e-2', 'delayed');
      outbox.pagePublishedUnprocessed.mockResolvedValue([published('e-1'), published('e-2')]);
      queue.getJob.mockImplementation(async (id) => (id === 'e-1' ? failed : delayed) as unknown as Job);
      expect(await sut.reconcile()).toBe(1);
      expect(failed.retry).toHaveBeenCalledWith('failed');
      expect(delayed.retry).not.toHaveBeenCalled();
      expect(publisher.enqueue).not.toHaveBeenCalled();
      expect(await metric('outbox_events_reenqueued_total')).toBe(1);
    });

    it('runs again a completed job whose event is still unprocessed: its processing was lost', async () => {
      const completed = job('e-1', 'completed');
      const active = job('e-2', 'active');
      outbox.pagePublishedUnprocessed.mockResolvedValue([published('e-1'), published('e-2')]);
      queue.getJob.mockImplementation(async (id) => (id === 'e-1' ? completed : active) as unknown as Job);
      expect(await sut.reconcile()).toBe(1);
      expect(completed.retry).toHaveBeenCalledWith('completed');
      expect(active.retry).not.toHaveBeenCalled();
      expect(publisher.enqueue).not.toHaveBeenCalled();
    });

    it('pages through every unprocessed event after the last one of a full page', async () => {
      const fullPage = Array.from({ length: 1000 }, (_, i) => published(`e-${i}`, 120));
      outbox.pagePublishedUnprocessed
        .mockResolvedValueOnce(fullPage)
        .mockResolvedValueOnce([published('e-last', 40)]);
      queue.getJob.mockImplementation(async (id) =>
        id === 'e-last' ? undefined : (job(id, 'active') as unknown as Job),
      );
      expect(await sut.reconcile()).toBe(1);
      expect(outbox.pagePublishedUnprocessed).toHaveBeenNthCalledWith(2, 30, 1000, fullPage[999]);
      expect(publisher.enqueue).toHaveBeenCalledWith([
        expect.objectContaining({ id: 'e-last', traceContext: null }),
      ]);
      expect(await metric('outbox_oldest_unprocessed_event_age_seconds')).toBeGreaterThanOrEqual(120);
    });

    it('enqueues nothing when every job still exists, and reports no backlog when nothing is unprocessed', async () => {
      outbox.pagePublishedUnprocessed.mockResolvedValueOnce([published('e-1')]).mockResolvedValueOnce([]);
      queue.getJob.mockResolvedValue(job('e-1', 'waiting') as unknown as Job);
      expect(await sut.reconcile()).toBe(0);
      expect(publisher.enqueue).not.toHaveBeenCalled();
      expect(await sut.reconcile()).toBe(0);
      expect(await metric('outbox_oldest_unprocessed_event_age_seconds')).toBe(0);
    });
  });

  describe('onApplicationShutdown', () => {
    it('closes the listener and drains no more', async () => {
      await sut.onApplicationBootstrap();
      publisher.publishPending.mockClear();
      await sut.onApplicationShutdown();
      sut.wake();
      expect(listener.close).toHaveBeenCalled();
      expect(publisher.publishPending).not.toHaveBeenCalled();
    });
  });
});
