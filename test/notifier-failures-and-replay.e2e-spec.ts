import { DataSource } from 'typeorm';
import {
  DeliveryWorld,
  getDelivery,
  getWebhookEndpoint,
  listDeliveries,
  startApiAndNotifier,
  webhookTenant,
} from './support/builders/webhooks';
import { countRows, selectRows } from './support/db';
import { eventually } from './support/http';
import { commitPersonUpdated, eventuallyProcessed } from './support/outbox';
import { expectProblem } from './support/problems';
import { RunningApp, TestStack } from './support/stack';
import { WebhookReceiver } from './support/webhook-receiver';

/** What the notifier does when a receiver keeps failing: give up, disable, and deliver again on request. */
describe('notifier: failed deliveries, disabled endpoints and replay', () => {
  let stack: TestStack, db: DataSource, api: RunningApp;
  beforeAll(async () => {
    ({ stack, db, api } = await startApiAndNotifier({
      WEBHOOK_DISABLE_AFTER_HOURS: '1',
      // Long enough for a held answer (below) to be an attempt in flight, not a timeout.
      WEBHOOK_TIMEOUT_MS: '10000',
    }));
  });
  afterAll(() => stack.close());

  const disabledEndpoint = (token: string, endpointId: string) =>
    eventually(async () => {
      const endpoint = await getWebhookEndpoint(api.api, token, endpointId);
      return endpoint.status === 'DISABLED' && endpoint;
    });

  it('disables the endpoint on 410, with the reason visible', async () => {
    const receiver = (await WebhookReceiver.start()).setDefault({ status: 410 });
    const f = await webhookTenant(stack, api.api, receiver.url);
    await commitPersonUpdated(db, f.tenant.code);
    const endpoint = await disabledEndpoint(f.token, f.endpoint.id);
    expect(endpoint.disabledReason).toContain('410');
    const [delivery] = await listDeliveries(api.api, f.token);
    expect(delivery).toMatchObject({ status: 'FAILED', attemptCount: 1, lastStatusCode: 410 });
    // The next event is fanned out (deliveries and "processed" commit together) to no endpoint.
    const next = await commitPersonUpdated(db, f.tenant.code);
    await eventuallyProcessed(db, next.id);
    expect(await countRows(db, 'notifications.webhook_deliveries', { event_id: next.id })).toBe(0);
    expect(receiver.received).toHaveLength(1);
    await receiver.stop();
  });

  it('marks the delivery failed after the last retry, and replays failed deliveries of the endpoint', async () => {
    const receiver = (await WebhookReceiver.start()).setDefault({ status: 500 });
    const f = await webhookTenant(stack, api.api, receiver.url);
    const since = new Date(Date.now() - 1000).toISOString();
    const event = await commitPersonUpdated(db, f.tenant.code);
    const failed = await eventually(async () =>
      (await listDeliveries(api.api, f.token)).find((d: { status: string }) => d.status === 'FAILED'),
    );
    expect(failed).toMatchObject({ attemptCount: 4, lastStatusCode: 500, nextAttemptAt: null });
    expect(receiver.received).toHaveLength(4);
    const filtered = await listDeliveries(
      api.api,
      f.token,
      `?status=FAILED&endpointId=${f.endpoint.id}&notificationTypeCode=PERSON_UPDATED`,
    );
    expect(filtered.map((d: { id: string }) => d.id)).toEqual([failed.id]);
    expectProblem(
      await api.api.post(
        `/api/v1/webhook-endpoints/${f.endpoint.id}/replay`,
        { since, until: since },
        { token: f.token },
      ),
      400,
    );

    receiver.setDefault({ status: 200 });
    const replay = await api.api.post(
      `/api/v1/webhook-endpoints/${f.endpoint.id}/replay`,
      { since },
      { token: f.token },
    );
    expect(replay.body).toEqual({ endpointId: f.endpoint.id, replayed: 1 });
    await receiver.waitFor(5);
    expect(receiver.received[4].headers['webhook-id']).toBe(event.id);
    const done = await eventually(async () => {
      const d = await getDelivery(api.api, f.token, failed.id);
      return d.status === 'SUCCEEDED' && d;
    });
    expect(done.attempts).toHaveLength(5);

    // A manual retry of a finished delivery sends it once more, with the same webhook-id.
    const retried = await api.api.post(
      `/api/v1/webhook-deliveries/${failed.id}/retry`,
      {},
      { token: f.token },
    );
    expect(retried.status).toBe(200);
    const sixth = (await receiver.waitFor(6))[5];
    expect(sixth.headers['webhook-id']).toBe(event.id);
    const again = await eventually(async () => {
      const d = await getDelivery(api.api, f.token, failed.id);
      return d.attempts.length === 6 && d;
    });
    expect(again).toMatchObject({ status: 'SUCCEEDED', attemptCount: 6, lastStatusCode: 200 });
    expect(again.attempts[5]).toMatchObject({ statusCode: 200, outcome: 'SUCCEEDED' });
    expect(receiver.received).toHaveLength(6);
    await receiver.stop();
  });

  it('refuses a manual retry of a delivery whose attempt is under way', async () => {
    // The receiver holds its answer: the first attempt is in flight while the retry is asked for.
    const receiver = (await WebhookReceiver.start()).respondWith({ status: 200, delayMs: 5000 });
    const f = await webhookTenant(stack, api.api, receiver.url);
    await commitPersonUpdated(db, f.tenant.code);
    await receiver.waitFor(1);
    const [inFlight] = await listDeliveries(api.api, f.token);
    expect(inFlight).toMatchObject({ status: 'PENDING', attemptCount: 0 });
    expectProblem(
      await api.api.post(`/api/v1/webhook-deliveries/${inFlight.id}/retry`, {}, { token: f.token }),
      409,
      'webhook_delivery_in_progress',
    );
    const delivered = await eventually(async () => {
      const d = await getDelivery(api.api, f.token, inFlight.id);
      return d.status === 'SUCCEEDED' && d;
    });
    expect(delivered.attemptCount).toBe(1);
    expect(receiver.received).toHaveLength(1);
    await receiver.stop();
  });

  it('sends a replayed delivery now, though its job was parked for an hour when the endpoint was disabled', async () => {
    const receiver = (await WebhookReceiver.start()).respondWith({
      status: 429,
      headers: { 'retry-after': '3600' },
    });
    const f = await webhookTenant(stack, api.api, receiver.url);
    const since = new Date(Date.now() - 1000).toISOString();
    const event = await commitPersonUpdated(db, f.tenant.code);
    await eventually(async () => (await listDeliveries(api.api, f.token))[0]?.nextAttemptAt);
    await api.api.post(`/api/v1/webhook-endpoints/${f.endpoint.id}/disable`, {}, { token: f.token });
    expect(await listDeliveries(api.api, f.token)).toEqual([expect.objectContaining({ status: 'FAILED' })]);
    await api.api.post(`/api/v1/webhook-endpoints/${f.endpoint.id}/enable`, {}, { token: f.token });
    const replay = await api.api.post(
      `/api/v1/webhook-endpoints/${f.endpoint.id}/replay`,
      { since },
      { token: f.token },
    );
    expect(replay.body.replayed).toBe(1);
    const [, second] = await receiver.waitFor(2);
    expect(second.headers['webhook-id']).toBe(event.id);
    await receiver.stop();
  });

  it('disables an endpoint that has failed without a success for longer than the limit, and says why', async () => {
    const receiver = (await WebhookReceiver.start()).setDefault({ status: 500 });
    const f = await webhookTenant(stack, api.api, receiver.url);
    // The endpoint has been failing for two hours already (limit in this stack: 1 h).
    await db.query(
      `UPDATE notifications.webhook_endpoints SET failing_since = now() - interval '2 hours' WHERE id = $1`,
      [f.endpoint.id],
    );
    await commitPersonUpdated(db, f.tenant.code);
    const endpoint = await disabledEndpoint(f.token, f.endpoint.id);
    expect(endpoint.disabledReason).toMatch(/failing without a success since .* \(limit 1 h\)/);
    const [delivery] = await eventually(async () => {
      const items = await listDeliveries(api.api, f.token);
      return items[0]?.status === 'FAILED' && items;
    });
    expect(delivery.lastError).toContain('endpoint disabled');
    expectProblem(
      await api.api.post(`/api/v1/webhook-deliveries/${delivery.id}/retry`, {}, { token: f.token }),
      409,
    );
    await receiver.stop();
  });

  it('records failing deliveries while the tenant disables and re-enables their endpoint, without deadlock or error', async () => {
    const receiver = await WebhookReceiver.start();
    receiver.setDefault({ status: 500 });
    const f = await webhookTenant(stack, api.api, receiver.url);
    const events = [];
    for (let i = 0; i < 20; i++) events.push(await commitPersonUpdated(db, f.tenant.code));
    const deliveries = { endpoint_id: f.endpoint.id };
    // Every event fanned out (a delivery row each) and some attempts failing, before the toggling starts.
    await eventually(
      async () => (await countRows(db, 'notifications.webhook_deliveries', deliveries)) === events.length,
      {
        what: 'a delivery per event',
      },
    );
    await receiver.waitFor(5);
    const answers: number[] = [];
    for (let i = 0; i < 8; i++) {
      answers.push(
        (await api.api.post(`/api/v1/webhook-endpoints/${f.endpoint.id}/disable`, {}, { token: f.token }))
          .status,
      );
      answers.push(
        (await api.api.post(`/api/v1/webhook-endpoints/${f.endpoint.id}/enable`, {}, { token: f.token }))
          .status,
      );
    }
    expect(new Set(answers)).toEqual(new Set([200]));
    await api.api.post(`/api/v1/webhook-endpoints/${f.endpoint.id}/disable`, {}, { token: f.token });
    // Every delivery ends in a final state: none is left pending by an aborted transaction.
    await eventually(
      async () => {
        const rows = await selectRows<{ status: string }>(
          db,
          'notifications.webhook_deliveries',
          deliveries,
          {
            columns: 'status',
          },
        );
        return rows.length === events.length && rows.every((r) => r.status === 'FAILED');
      },
      { what: 'every delivery failed after the endpoint was disabled' },
    );
    await receiver.stop();
  });
});

describe('notifier: a manual retry of a delivery waiting for its next attempt', () => {
  let slow: DeliveryWorld;
  beforeAll(async () => {
    slow = await startApiAndNotifier({ WEBHOOK_RETRY_SCHEDULE: '3600' });
  });
  afterAll(() => slow.stack.close());

  it('sends a pending delivery that waits for its next attempt now, with the same webhook-id', async () => {
    // A 500, then an hour's wait on this stack's schedule: the delivery waits, pending, for its next attempt.
    const receiver = (await WebhookReceiver.start()).respondWith({ status: 500 });
    const f = await webhookTenant(slow.stack, slow.api.api, receiver.url);
    const event = await commitPersonUpdated(slow.db, f.tenant.code);
    const waiting = await eventually(async () => {
      const [d] = await listDeliveries(slow.api.api, f.token);
      return d?.attemptCount === 1 && d.nextAttemptAt !== null && d;
    });
    expect(waiting.status).toBe('PENDING');
    const retried = await slow.api.api.post(
      `/api/v1/webhook-deliveries/${waiting.id}/retry`,
      {},
      { token: f.token },
    );
    expect(retried.status).toBe(200);
    const [, second] = await receiver.waitFor(2);
    expect(second.headers['webhook-id']).toBe(event.id);
    const delivered = await eventually(async () => {
      const d = await getDelivery(slow.api.api, f.token, waiting.id);
      return d.status === 'SUCCEEDED' && d;
    });
    expect(delivered).toMatchObject({ attemptCount: 2, nextAttemptAt: null });
    await receiver.stop();
  });
});
