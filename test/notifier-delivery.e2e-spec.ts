import { DataSource } from 'typeorm';
import { QueueName, queuePrefix } from '@fincore/events';
import {
  getDelivery,
  getWebhookEndpoint,
  listDeliveries,
  startApiAndNotifier,
  webhookTenant,
} from './support/builders/webhooks';
import { selectRows } from './support/db';
import { eventually } from './support/http';
import { commitPersonUpdated, eventuallyProcessed } from './support/outbox';
import { RunningApp, TestStack } from './support/stack';
import { verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

/**
 * Delivery end to end: events enter through the real outbox (a committed row, published by the
 * notification API's relay), the in-process notifier fans out and delivers to a real local
 * receiver, and every signature is checked with the independent `standardwebhooks` package.
 */
describe('notifier: fan-out, signed webhook delivery and retries', () => {
  let stack: TestStack, db: DataSource, api: RunningApp, notifier: RunningApp;
  beforeAll(async () => {
    ({ stack, db, api, notifier } = await startApiAndNotifier({ WEBHOOK_DISABLE_AFTER_HOURS: '1' }));
  });
  afterAll(() => stack.close());

  const succeededDelivery = async (token: string) =>
    eventually(async () =>
      (await listDeliveries(api.api, token)).find((d: { status: string }) => d.status === 'SUCCEEDED'),
    );

  it('delivers a signed PERSON_UPDATED webhook with the envelope, once enabled', async () => {
    const receiver = await WebhookReceiver.start();
    const f = await webhookTenant(stack, api.api, receiver.url);
    const event = await commitPersonUpdated(db, f.tenant.code, 'person-1');
    const [webhook] = await receiver.waitFor(1);
    expect(verifyWebhook(webhook, f.endpoint.secret)).toMatchObject({ id: event.id, type: 'PERSON_UPDATED' });
    expect(webhook.json).toEqual({
      id: event.id,
      type: 'PERSON_UPDATED',
      tenantCode: f.tenant.code,
      occurredAt: event.occurredAt,
      correlationId: null,
      subject: { type: 'person', id: 'person-1' },
      sequence: null,
      data: event.data,
    });
    expect(webhook.headers['webhook-id']).toBe(event.id);
    expect(webhook.headers['user-agent']).toMatch(/^fincore-webhooks\//);
    expect(webhook.headers['content-type']).toBe('application/json');
    const delivery = await succeededDelivery(f.token);
    const detail = await getDelivery(api.api, f.token, delivery.id);
    expect(detail).toMatchObject({ eventId: event.id, attemptCount: 1, lastStatusCode: 200 });
    expect(detail.attempts).toEqual([
      expect.objectContaining({
        attemptNumber: 1,
        statusCode: 200,
        outcome: 'SUCCEEDED',
        responseExcerpt: 'ok',
      }),
    ]);
    await receiver.stop();
  });

  it('records a response whose body PostgreSQL cannot store as text (NUL) as a success, and sends once', async () => {
    const receiver = (await WebhookReceiver.start()).setDefault({ status: 200, body: 'ok\u0000done' });
    const f = await webhookTenant(stack, api.api, receiver.url);
    await commitPersonUpdated(db, f.tenant.code);
    const delivery = await succeededDelivery(f.token);
    const detail = await getDelivery(api.api, f.token, delivery.id);
    expect(detail.attempts).toEqual([
      expect.objectContaining({ statusCode: 200, outcome: 'SUCCEEDED', responseExcerpt: 'okdone' }),
    ]);
    expect(receiver.received).toHaveLength(1);
    await receiver.stop();
  });

  it('sends nothing when the type is not enabled, or was disabled, and only events after enabling count', async () => {
    const receiver = await WebhookReceiver.start();
    const f = await webhookTenant(stack, api.api, receiver.url, { enable: false });
    const before = await commitPersonUpdated(db, f.tenant.code);
    await eventuallyProcessed(db, before.id);
    const body = { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' };
    await api.api.put('/api/v1/notification-config/enable', body, { token: f.token });
    await api.api.put('/api/v1/notification-config/disable', body, { token: f.token });
    const whileDisabled = await commitPersonUpdated(db, f.tenant.code);
    await eventuallyProcessed(db, whileDisabled.id);
    await api.api.put('/api/v1/notification-config/enable', body, { token: f.token });
    const after = await commitPersonUpdated(db, f.tenant.code);
    const [webhook] = await receiver.waitFor(1);
    expect(webhook.json.id).toBe(after.id);
    expect(receiver.received).toHaveLength(1);
    expect(await listDeliveries(api.api, f.token)).toHaveLength(1);
    await receiver.stop();
  });

  it('retries 500, 500 then 200 and delivers on the third attempt with the same webhook-id', async () => {
    const receiver = (await WebhookReceiver.start()).respondWith(
      { status: 500, body: 'boom' },
      { status: 500, body: 'boom' },
    );
    const f = await webhookTenant(stack, api.api, receiver.url);
    const event = await commitPersonUpdated(db, f.tenant.code);
    const received = await receiver.waitFor(3);
    expect(received.map((w) => w.answeredWith)).toEqual([500, 500, 200]);
    expect(new Set(received.map((w) => w.headers['webhook-id']))).toEqual(new Set([event.id]));
    for (const w of received) verifyWebhook(w, f.endpoint.secret);
    const delivery = await succeededDelivery(f.token);
    const detail = await getDelivery(api.api, f.token, delivery.id);
    expect(detail.attempts.map((a) => [a.statusCode, a.outcome])).toEqual([
      [500, 'FAILED'],
      [500, 'FAILED'],
      [200, 'SUCCEEDED'],
    ]);
    expect(detail.attempts[0]).toMatchObject({ error: 'HTTP 500', responseExcerpt: 'boom' });
    // The success ends the endpoint's failure streak.
    expect(await getWebhookEndpoint(api.api, f.token, f.endpoint.id)).toMatchObject({
      status: 'ACTIVE',
      failingSince: null,
      lastSuccessAt: expect.any(String),
    });
    await receiver.stop();
  });

  it('waits as long as Retry-After says on 429', async () => {
    const receiver = (await WebhookReceiver.start()).respondWith({
      status: 429,
      headers: { 'retry-after': '120' },
    });
    const f = await webhookTenant(stack, api.api, receiver.url);
    const event = await commitPersonUpdated(db, f.tenant.code);
    const [delivery] = await eventually(async () => {
      const rows = await selectRows<{ last_attempt_at: Date; next_attempt_at: Date | null }>(
        db,
        'notifications.webhook_deliveries',
        { event_id: event.id, attempt_count: 1 },
        { columns: 'status, last_attempt_at, next_attempt_at' },
      );
      return rows[0]?.next_attempt_at && rows;
    });
    // The schedule alone would retry after ~0.2 s; the receiver asked for 120 s from its answer.
    expect(delivery).toMatchObject({ status: 'PENDING' });
    expect(delivery.next_attempt_at!.getTime() - delivery.last_attempt_at.getTime()).toBe(120_000);
    await receiver.stop();
  });

  it('delivers after the receiver comes back, and survives Redis losing every job', async () => {
    const receiver = await WebhookReceiver.start();
    const f = await webhookTenant(stack, api.api, receiver.url);
    await receiver.stop();
    const event = await commitPersonUpdated(db, f.tenant.code);
    // The delivery exists and has failed at least once while the receiver is down…
    const delivery = await eventually(async () => {
      const [d] = await listDeliveries(api.api, f.token);
      return d?.attemptCount >= 1 && d;
    });
    // …then Redis forgets everything (the local Redis keeps nothing on disk), the delivery's job included.
    const redis = stack.redis();
    const prefix = queuePrefix(stack.config.QUEUE_PREFIX);
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys).toContain(`${prefix}:${QueueName.WebhookDeliveries}:${delivery.id}`);
    await redis.del(...keys);
    await receiver.listen();
    const [webhook] = await receiver.waitFor(1, { timeoutMs: 20_000 });
    expect(webhook.json.id).toBe(event.id);
    verifyWebhook(webhook, f.endpoint.secret);
    await receiver.stop();
  });

  it('signs with both secrets during a rotation grace period', async () => {
    const receiver = await WebhookReceiver.start();
    const f = await webhookTenant(stack, api.api, receiver.url);
    const rotated = await api.api.post(
      `/api/v1/webhook-endpoints/${f.endpoint.id}/rotate-secret`,
      {},
      { token: f.token },
    );
    await commitPersonUpdated(db, f.tenant.code);
    const [webhook] = await receiver.waitFor(1);
    expect(String(webhook.headers['webhook-signature']).split(' ')).toHaveLength(2);
    verifyWebhook(webhook, rotated.body.secret);
    verifyWebhook(webhook, f.endpoint.secret);
    await receiver.stop();
  });

  it('protects Bull Board with basic auth', async () => {
    expect((await fetch(`${notifier.url}/admin/queues`)).status).toBe(401);
    const wrong = Buffer.from('admin:nope').toString('base64');
    expect(
      (await fetch(`${notifier.url}/admin/queues`, { headers: { authorization: `Basic ${wrong}` } })).status,
    ).toBe(401);
    const auth = { authorization: `Basic ${Buffer.from('admin:test-password').toString('base64')}` };
    const page = await fetch(`${notifier.url}/admin/queues`, { headers: auth });
    expect(page.status).toBe(200);
    const queues = await fetch(`${notifier.url}/admin/queues/api/queues`, { headers: auth });
    const names = ((await queues.json()) as { queues: Array<{ name: string }> }).queues.map((q) => q.name);
    expect(names).toEqual(expect.arrayContaining(['domain-events', 'webhook-deliveries']));
    // A path the board does not know is answered like any other unknown path.
    const unknown = await fetch(`${notifier.url}/admin/queues/static/none.js`, { headers: auth });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });

  it('counts a successful delivery in the metrics', async () => {
    const metrics = async () => (await fetch(`${notifier.url}/metrics`)).text();
    const before = await metrics();
    const receiver = await WebhookReceiver.start();
    const f = await webhookTenant(stack, api.api, receiver.url);
    await commitPersonUpdated(db, f.tenant.code);
    await succeededDelivery(f.token);
    const after = await metrics();
    const succeeded = /webhook_delivery_attempts_total\{outcome="succeeded"\} (\d+)/;
    const delivered = /webhook_event_to_delivery_seconds_count (\d+)/;
    expect(metricValue(after, succeeded)).toBeGreaterThanOrEqual(metricValue(before, succeeded) + 1);
    expect(metricValue(after, delivered)).toBeGreaterThanOrEqual(metricValue(before, delivered) + 1);
    expect(after).toContain('webhook_attempt_duration_seconds_bucket');
    expect(after).toMatch(/queue_jobs\{queue="webhook-deliveries",state="waiting"\}/);
    await receiver.stop();
  });
});

/** A metric's value in Prometheus text, 0 while it has no sample yet. */
function metricValue(text: string, pattern: RegExp): number {
  return Number(text.match(pattern)?.[1] ?? 0);
}
