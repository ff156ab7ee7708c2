import { Logger } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import type { AppConfig } from '@fincore/platform';
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
  const config = {
    DATABASE_URL: 'postgres://db/fincore',
    OUTBOX_POLL_MS: 600_000,
    RECONCILE_INTERVAL_MS: 600_000,
  } as AppConfig;

  beforeEach(() => {
    publisher = newDouble<OutboxPublisher>();
    outbox = newDouble<OutboxRepository>();
    queue = newDouble<Queue<DomainEventJob>>();
    listener = newDouble<OutboxListener>();
    outbox.listenForInserts.mockResolvedValue(listener);
    publisher.publishPending.mockResolvedValue(0);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    sut = new OutboxRelay(publisher, outbox, queue, config);
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
    it('re-enqueues the published, unprocessed events whose jobs are gone, and only those', async () => {
      outbox.findPublishedUnprocessed.mockResolvedValue(['e-1', 'e-2', 'e-3']);
      queue.getJob.mockImplementation(async (id) => (id === 'e-2' ? ({ id } as Job) : undefined));
      expect(await sut.reconcile()).toBe(2);
      expect(outbox.findPublishedUnprocessed).toHaveBeenCalledWith(30, 1000);
      expect(publisher.enqueue).toHaveBeenCalledWith(['e-1', 'e-3']);
    });

    it('enqueues nothing when every job still exists', async () => {
      outbox.findPublishedUnprocessed.mockResolvedValue(['e-1']);
      queue.getJob.mockResolvedValue({ id: 'e-1' } as Job);
      expect(await sut.reconcile()).toBe(0);
      expect(publisher.enqueue).not.toHaveBeenCalled();
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
