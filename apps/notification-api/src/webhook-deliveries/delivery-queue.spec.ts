import type { Job, Queue } from 'bullmq';
import type { WebhookDeliveryJob } from '@fincore/events';
import { newDouble } from '@test/support/doubles';
import { DeliveryQueue } from './delivery-queue';

describe('DeliveryQueue', () => {
  let queue: jest.Mocked<Queue<WebhookDeliveryJob>>;
  let sut: DeliveryQueue;

  beforeEach(() => {
    queue = newDouble<Queue<WebhookDeliveryJob>>();
    sut = new DeliveryQueue(queue);
  });

  describe('enqueueNow', () => {
    it('adds a job per delivery, due now, with the delivery id as job id', async () => {
      queue.getJob.mockResolvedValue(undefined);
      queue.add.mockResolvedValue({} as Job);

      await sut.enqueueNow(['d1', 'd2']);

      expect(queue.add).toHaveBeenCalledWith(
        'deliver',
        { deliveryId: 'd1' },
        expect.objectContaining({ jobId: 'd1', delay: 0 }),
      );
      expect(queue.add).toHaveBeenCalledTimes(2);
    });

    it('leaves a failure to the reconciler instead of failing the request', async () => {
      queue.getJob.mockRejectedValue(new Error('Redis is away'));

      await expect(sut.enqueueNow(['d1'])).resolves.toBeUndefined();
    });

    it('gives up on a Redis that does not answer, leaving the delivery to the reconciler', async () => {
      jest.useFakeTimers();
      try {
        queue.getJob.mockReturnValue(new Promise(() => undefined));

        const enqueued = sut.enqueueNow(['d1']);
        await jest.advanceTimersByTimeAsync(3000);

        await expect(enqueued).resolves.toBeUndefined();
      } finally {
        jest.useRealTimers();
      }
    });
  });
});
