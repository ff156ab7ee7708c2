import type { Queue } from 'bullmq';
import type { WebhookDeliveryJob } from '@fincore/events';
import { newDouble } from '../../../../test/support/doubles';
import { AttemptFollowUp } from './attempt-follow-up';

describe('AttemptFollowUp', () => {
  let queue: jest.Mocked<Queue<WebhookDeliveryJob>>;
  let sut: AttemptFollowUp;

  beforeEach(() => {
    queue = newDouble<Queue<WebhookDeliveryJob>>();
    queue.getJob.mockResolvedValue(undefined);
    sut = new AttemptFollowUp(queue);
  });

  it('runs a delivery due again the way its caller says, and queues nothing itself', async () => {
    const at = new Date(Date.now() + 5000);
    const runAgain = jest.fn(async () => undefined);

    await sut.follow('d1', { kind: 'run_at', at }, 3, runAgain);

    expect(runAgain).toHaveBeenCalledWith(at);
    expect(queue.add).not.toHaveBeenCalled();
  });

  it('gives a delivery due again without a job one at its priority', async () => {
    const at = new Date(Date.now() + 5000);

    await sut.follow('d1', { kind: 'run_at', at }, 3);

    expect(queue.add).toHaveBeenCalledWith(
      expect.any(String),
      expect.objectContaining({ deliveryId: 'd1' }),
      expect.objectContaining({ jobId: 'd1', priority: 3 }),
    );
  });

  it('wakes the next delivery of a chain, and a lost wake-up fails nothing', async () => {
    const wake = { id: 'd2', nextAttemptAt: new Date() };
    queue.add.mockRejectedValueOnce(new Error('Redis away'));

    await expect(sut.follow('d1', { kind: 'done', wake }, 3)).resolves.toBeUndefined();

    expect(queue.add).toHaveBeenCalledWith(
      expect.any(String),
      expect.objectContaining({ deliveryId: 'd2' }),
      expect.objectContaining({ jobId: 'd2', priority: 3 }),
    );
  });
});
