import { Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { newDouble } from '@test/support/doubles';
import { OutboxPublisher } from './outbox-publisher';
import type { OutboxRepository, PublishClaimed } from './outbox.repository';
import type { DomainEventJob } from './queues';

describe('OutboxPublisher', () => {
  let outbox: jest.Mocked<OutboxRepository>;
  let queue: jest.Mocked<Queue<DomainEventJob>>;
  let sut: OutboxPublisher;

  const toEnqueue = (id: string, tenantCode = 'ACME', traceContext: string | null = null) => ({
    id,
    tenantCode,
    traceContext,
  });

  /** The repository claims `claimed` and hands them to the publisher's callback, like the real one. */
  const claims =
    (claimed: string[], tenants: string[] = []) =>
    async (_: unknown, publish: PublishClaimed) => {
      if (!claimed.length) return 0;
      await publish(claimed.map((id, i) => toEnqueue(id, tenants[i])));
      return claimed.length;
    };

  beforeEach(() => {
    outbox = newDouble<OutboxRepository>();
    queue = newDouble<Queue<DomainEventJob>>();
    queue.addBulk.mockResolvedValue([]);
    queue.add.mockResolvedValue(undefined as never);
    sut = new OutboxPublisher(outbox, queue);
  });
  afterEach(() => jest.useRealTimers());

  describe('publish', () => {
    it('enqueues the events the repository claims, one job per event id', async () => {
      outbox.publishUnpublished.mockImplementation(claims(['e-2']));
      expect(await sut.publish(['e-1', 'e-2'])).toBe(1);
      expect(outbox.publishUnpublished).toHaveBeenCalledWith(['e-1', 'e-2'], expect.any(Function));
      expect(queue.add).toHaveBeenCalledWith('event', { eventId: 'e-2' }, { jobId: 'e-2', priority: 1 });
      expect(queue.addBulk).not.toHaveBeenCalled();
    });

    it("sorts a tenant's burst behind another tenant's lone event", async () => {
      outbox.publishUnpublished.mockImplementation(claims(['a-1', 'a-2', 'b-1'], ['A', 'A', 'B']));
      await sut.publish(['a-1', 'a-2', 'b-1']);
      expect(queue.addBulk.mock.calls[0][0].map((job) => job.opts?.priority)).toEqual([2, 2, 1]);
    });

    it('fails the claim when the queue refuses, so the rows stay unpublished', async () => {
      outbox.publishUnpublished.mockImplementation(claims(['e-1']));
      queue.add.mockRejectedValue(new Error('redis down'));
      await expect(sut.publish(['e-1'])).rejects.toThrow('redis down');
    });
  });

  describe('publishPending', () => {
    it('claims at most 100 of the oldest rows unless told otherwise', async () => {
      outbox.publishOldestUnpublished.mockImplementation(claims(['e-1', 'e-2']));
      expect(await sut.publishPending()).toBe(2);
      expect(outbox.publishOldestUnpublished).toHaveBeenCalledWith(100, expect.any(Function));
      await sut.publishPending(7);
      expect(outbox.publishOldestUnpublished).toHaveBeenLastCalledWith(7, expect.any(Function));
    });
  });

  describe('enqueue', () => {
    it('adds nothing for no events', async () => {
      await sut.enqueue([]);
      expect(queue.addBulk).not.toHaveBeenCalled();
    });

    it("hands each event's stored trace context on in its job, even where this process does not trace", async () => {
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      await sut.enqueue([
        toEnqueue('e-1', 'ACME', JSON.stringify({ traceparent })),
        toEnqueue('e-2', 'OTHER'),
      ]);
      expect(queue.addBulk).toHaveBeenCalledWith([
        {
          name: 'event',
          data: { eventId: 'e-1', trace: { traceparent } },
          opts: { jobId: 'e-1', priority: 1 },
        },
        { name: 'event', data: { eventId: 'e-2' }, opts: { jobId: 'e-2', priority: 1 } },
      ]);
    });

    it('gives up after 3 seconds when Redis does not answer', async () => {
      jest.useFakeTimers();
      queue.add.mockReturnValue(new Promise(() => undefined));
      const enqueued = sut.enqueue([toEnqueue('e-1')]);
      jest.advanceTimersByTime(3000);
      await expect(enqueued).rejects.toThrow('Enqueueing domain events timed out after 3000 ms');
    });
  });

  describe('publishInBackground', () => {
    it('enqueues nothing for no events', () => {
      sut.publishInBackground([]);
      expect(queue.addBulk).not.toHaveBeenCalled();
      expect(queue.add).not.toHaveBeenCalled();
    });

    it('enqueues the events written already marked published, without touching the outbox', async () => {
      sut.publishInBackground([toEnqueue('e-1'), toEnqueue('e-2')]);
      await sut.onApplicationShutdown();
      expect(queue.addBulk).toHaveBeenCalledWith([
        { name: 'event', data: { eventId: 'e-1' }, opts: { jobId: 'e-1', priority: 2 } },
        { name: 'event', data: { eventId: 'e-2' }, opts: { jobId: 'e-2', priority: 2 } },
      ]);
      expect(outbox.unmarkPublished).not.toHaveBeenCalled();
    });

    it('hands the events back to the relay when the queue refuses, and shutdown waits for that', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      let fail!: (error: Error) => void;
      queue.add.mockReturnValue(new Promise((_, reject) => (fail = reject)));
      outbox.unmarkPublished.mockResolvedValue(undefined);
      sut.publishInBackground([toEnqueue('e-1')]);
      const shutdown = sut.onApplicationShutdown();
      fail(new Error('redis away'));
      await shutdown;
      expect(outbox.unmarkPublished).toHaveBeenCalledWith(['e-1']);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('the relay will retry: redis away'));
      warn.mockRestore();
    });
  });
});
