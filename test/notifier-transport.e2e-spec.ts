import { DataSource } from 'typeorm';
import { getDelivery, listDeliveries, startApiAndNotifier, webhookTenant } from './support/builders/webhooks';
import { eventually } from './support/http';
import { commitPersonUpdated } from './support/outbox';
import { RunningApp, TestStack } from './support/stack';
import { WebhookReceiver } from './support/webhook-receiver';

/** How one attempt talks HTTP: a receiver that does not answer in time, a receiver that redirects. */
describe('notifier: per-attempt timeout and redirects', () => {
  const TIMEOUT_MS = 500;
  let stack: TestStack, db: DataSource, api: RunningApp;
  beforeAll(async () => {
    ({ stack, db, api } = await startApiAndNotifier({ WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) }));
  });
  afterAll(() => stack.close());

  const finishedDelivery = (token: string) =>
    eventually(async () => {
      const [d] = await listDeliveries(api.api, token);
      return d && d.status !== 'PENDING' && getDelivery(api.api, token, d.id);
    });

  it('records an attempt the receiver does not answer within the timeout as a timeout, and retries it', async () => {
    // The first request is answered only long after the timeout; the retry at once.
    const receiver = (await WebhookReceiver.start()).respondWith({ status: 200, delayMs: TIMEOUT_MS * 6 });
    const f = await webhookTenant(stack, api.api, receiver.url);
    const event = await commitPersonUpdated(db, f.tenant.code);
    const delivery = await finishedDelivery(f.token);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attemptCount: 2, lastStatusCode: 200 });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({
        statusCode: null,
        outcome: 'FAILED',
        error: expect.stringMatching(/^timeout/),
      }),
      expect.objectContaining({ statusCode: 200, outcome: 'SUCCEEDED' }),
    ]);
    expect(receiver.received.map((w) => w.headers['webhook-id'])).toEqual([event.id, event.id]);
    await receiver.stop();
  });

  it('treats a redirect as a failure and never calls its target', async () => {
    const target = await WebhookReceiver.start();
    const receiver = (await WebhookReceiver.start()).setDefault({
      status: 307,
      headers: { location: `${target.url}/elsewhere` },
    });
    const f = await webhookTenant(stack, api.api, receiver.url);
    await commitPersonUpdated(db, f.tenant.code);
    // Every attempt of the schedule is spent on the redirecting receiver.
    const delivery = await finishedDelivery(f.token);
    expect(delivery).toMatchObject({ status: 'FAILED', attemptCount: 4, lastStatusCode: 307 });
    expect(delivery.attempts.map((a) => [a.statusCode, a.outcome, a.error])).toEqual(
      Array(4).fill([307, 'FAILED', 'HTTP 307']),
    );
    expect(receiver.received).toHaveLength(4);
    expect(target.received).toEqual([]);
    await receiver.stop();
    await target.stop();
  });
});
