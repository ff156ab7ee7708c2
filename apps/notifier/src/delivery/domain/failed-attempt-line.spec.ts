import { failedAttemptLine } from './failed-attempt-line';

const ids = { deliveryId: 'delivery-1', endpointId: 'endpoint-1' };
const http = (statusCode: number) => ({ kind: 'response' as const, statusCode });

describe('failedAttemptLine', () => {
  const sut = failedAttemptLine;

  it('says nothing of a success', () => {
    expect(sut({ ...ids, result: http(200), decision: { kind: 'succeeded' }, nextAt: null })).toBeUndefined();
  });

  it('names the delivery, the endpoint, the status and the next attempt at info level while a retry is due', () => {
    const nextAt = new Date('2026-01-10T12:05:00.000Z');
    expect(sut({ ...ids, result: http(500), decision: { kind: 'retry', delayMs: 300_000 }, nextAt })).toEqual(
      {
        level: 'log',
        message:
          'Webhook attempt failed: delivery delivery-1, endpoint endpoint-1, HTTP 500; next attempt at 2026-01-10T12:05:00.000Z',
      },
    );
  });

  it('gives the error of an attempt that got no answer', () => {
    const line = sut({
      ...ids,
      result: { kind: 'error', message: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9' },
      decision: { kind: 'retry', delayMs: 5000 },
      nextAt: new Date('2026-01-10T12:00:05.000Z'),
    });
    expect(line?.message).toContain('error: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9; next attempt at');
  });

  it.each([
    [{ kind: 'failed' as const }, 'the retry schedule is exhausted'],
    [{ kind: 'endpoint_gone' as const }, 'the endpoint is gone'],
    [{ kind: 'retry' as const, delayMs: 5000 }, 'the delivery is no longer pending'],
  ])('warns when no attempt follows (%j)', (decision, why) => {
    expect(sut({ ...ids, result: http(410), decision, nextAt: null })).toEqual({
      level: 'warn',
      message: `Webhook attempt failed: delivery delivery-1, endpoint endpoint-1, HTTP 410; no next attempt: ${why}`,
    });
  });
});
