import { AttemptRecord, DeliveryStatus, WebhookDeliveryAttemptRepository } from '@fincore/notifications';
import { newDouble } from '../../../../test/support/doubles';
import { SucceededAttemptRecorder } from './succeeded-attempt-recorder';

const attempt = (deliveryId: string) => ({ deliveryId }) as AttemptRecord;

describe('SucceededAttemptRecorder', () => {
  let deliveries: jest.Mocked<WebhookDeliveryAttemptRepository>;
  let sut: SucceededAttemptRecorder;

  beforeEach(() => {
    deliveries = newDouble<WebhookDeliveryAttemptRepository>();
    sut = new SucceededAttemptRecorder(deliveries);
  });

  it('records a lone success at once, in the one-row statement', async () => {
    deliveries.recordSucceededAttempt.mockResolvedValue(DeliveryStatus.Succeeded);

    expect(await sut.record(attempt('d1'))).toBe(DeliveryStatus.Succeeded);
    expect(deliveries.recordSucceededAttempts).not.toHaveBeenCalled();
  });

  it('records the successes that finish while a statement runs together in the next one', async () => {
    let finishFirst!: () => void;
    deliveries.recordSucceededAttempt.mockReturnValueOnce(
      new Promise((resolve) => (finishFirst = () => resolve(DeliveryStatus.Succeeded))),
    );
    deliveries.recordSucceededAttempts.mockResolvedValue(
      new Map([
        ['d2', DeliveryStatus.Succeeded],
        ['d3', DeliveryStatus.Failed],
      ]),
    );

    const recorded = [sut.record(attempt('d1')), sut.record(attempt('d2')), sut.record(attempt('d3'))];
    finishFirst();

    expect(await Promise.all(recorded)).toEqual(['SUCCEEDED', 'SUCCEEDED', 'FAILED']);
    expect(deliveries.recordSucceededAttempts).toHaveBeenCalledTimes(1);
    expect(deliveries.recordSucceededAttempts.mock.calls[0][0].map((a) => a.deliveryId)).toEqual([
      'd2',
      'd3',
    ]);
  });

  it('records on its own each success the batch did not take, or all of them when it failed', async () => {
    let finishFirst!: () => void;
    deliveries.recordSucceededAttempt
      .mockReturnValueOnce(new Promise((resolve) => (finishFirst = () => resolve(DeliveryStatus.Succeeded))))
      .mockResolvedValueOnce(DeliveryStatus.Succeeded)
      .mockRejectedValueOnce(new Error('database away'));
    deliveries.recordSucceededAttempts.mockRejectedValue(new Error('deadlock'));

    const first = sut.record(attempt('d1'));
    const second = sut.record(attempt('d2'));
    const third = sut.record(attempt('d3'));
    finishFirst();

    await first;
    expect(await second).toBe(DeliveryStatus.Succeeded);
    await expect(third).rejects.toThrow('database away');
    expect(deliveries.recordSucceededAttempt.mock.calls.map(([a]) => a.deliveryId)).toEqual([
      'd1',
      'd2',
      'd3',
    ]);
  });
});
