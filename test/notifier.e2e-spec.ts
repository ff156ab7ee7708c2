import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { OutboxEventEntity, recordEvent } from '@fincore/events';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { NotifierApp } from '../apps/notifier/src/app.definition';
import { eventually } from './support/http';
import { RunningApp, TenantFixture, TestStack } from './support/stack';
import { ReceivedWebhook, WebhookReceiver } from './support/webhook-receiver';

/**
 * The delivery flow of DESIGN section 3 end to end: events enter through the real outbox (a
 * committed row, published by the notification API's relay), the in-process notifier fans out
 * and delivers to a real local receiver, and every signature is checked with the independent
 * `standardwebhooks` package.
 */
describe('notifier: fan-out and signed webhook delivery', () => {
  let stack: TestStack;
  let api: RunningApp;
  let notifier: RunningApp;

  beforeAll(async () => {
    stack = await TestStack.create({ WEBHOOK_DISABLE_AFTER_HOURS: '1' });
    await stack.db([OutboxEventEntity]);
    api = await stack.startApp(NotificationApiApp);
    notifier = await stack.startApp(NotifierApp);
  });
  afterAll(() => stack.close());

  /** A PERSON_UPDATED event committed through the outbox, as the credentials API would. */
  const personUpdated = async (tenantCode: string, personId: string = randomUUID()) =>
    (await stack.db()).transaction((manager) =>
      recordEvent(manager, {
        type: 'PERSON_UPDATED',
        tenantCode,
        data: {
          personId,
          changedFields: ['credentials.status'],
          credentials: { status: 'INVALIDATED', invalidatedAt: new Date().toISOString() },
        },
      }),
    );

  const setUp = async (receiver: WebhookReceiver, options: { enable?: boolean; path?: string } = {}) => {
    const fixture = await stack.createTenant();
    if (options.enable !== false) {
      const r = await api.api.put(
        '/api/v1/notification-config/enable',
        { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' },
        { token: fixture.token },
      );
      expect(r.status).toBe(200);
    }
    const endpoint = await api.api.post(
      '/api/v1/webhook-endpoints',
      { url: `${receiver.url}${options.path ?? '/hook'}` },
      { token: fixture.token },
    );
    expect(endpoint.status).toBe(201);
    return { ...fixture, endpoint: endpoint.body as { id: string; secret: string } };
  };

  const verify = (webhook: ReceivedWebhook, secret: string) =>
    new Webhook(secret).verify(webhook.body, webhook.headers as Record<string, string>);

  const deliveriesOf = async (f: TenantFixture) =>
    (await api.api.get('/api/v1/webhook-deliveries', { token: f.token })).body.items;
  const processed = async (eventId: string) =>
    eventually(
      async () => {
        const [row] = await (
          await stack.db()
        ).query(`SELECT processed_at FROM events.outbox WHERE id = $1`, [eventId]);
        return row?.processed_at;
      },
      { what: `event ${eventId} processed` },
    );

  it('delivers a signed PERSON_UPDATED webhook with the envelope, once enabled', async () => {
    const receiver = await WebhookReceiver.start();
    const f = await setUp(receiver);
    const event = await personUpdated(f.tenant.code, 'person-1');
    const [webhook] = await receiver.waitFor(1);
    expect(verify(webhook, f.endpoint.secret)).toMatchObject({ id: event.id, type: 'PERSON_UPDATED' });
    expect(webhook.json).toEqual({
      id: event.id,
      type: 'PERSON_UPDATED',
      tenantCode: f.tenant.code,
      occurredAt: event.occurredAt,
      correlationId: null,
      data: event.data,
    });
    expect(webhook.headers['webhook-id']).toBe(event.id);
    expect(webhook.headers['user-agent']).toMatch(/^fincore-webhooks\//);
    expect(webhook.headers['content-type']).toBe('application/json');
    const delivery = await eventually(async () =>
      (await deliveriesOf(f)).find((d: { status: string }) => d.status === 'SUCCEEDED'),
    );
    const detail = await api.api.get(`/api/v1/webhook-deliveries/${delivery.id}`, { token: f.token });
    expect(detail.body).toMatchObject({ eventId: event.id, attemptCount: 1, lastStatusCode: 200 });
    expect(detail.body.attempts).toEqual([
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
    const f = await setUp(receiver);
    await personUpdated(f.tenant.code);
    const delivery = await eventually(async () =>
      (await deliveriesOf(f)).find((d: { status: string }) => d.status === 'SUCCEEDED'),
    );
    const detail = (await api.api.get(`/api/v1/webhook-deliveries/${delivery.id}`, { token: f.token })).body;
    expect(detail.attempts).toEqual([
      expect.objectContaining({ statusCode: 200, outcome: 'SUCCEEDED', responseExcerpt: 'okdone' }),
    ]);
    expect(receiver.received).toHaveLength(1);
    await receiver.stop();
  });

  it('sends nothing when the type is not enabled, or was disabled, and only events after enabling count', async () => {
    const receiver = await WebhookReceiver.start();
    const f = await setUp(receiver, { enable: false });
    const before = await personUpdated(f.tenant.code);
    await processed(before.id);
    const body = { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' };
    await api.api.put('/api/v1/notification-config/enable', body, { token: f.token });
    await api.api.put('/api/v1/notification-config/disable', body, { token: f.token });
    const whileDisabled = await personUpdated(f.tenant.code);
    await processed(whileDisabled.id);
    await api.api.put('/api/v1/notification-config/enable', body, { token: f.token });
    const after = await personUpdated(f.tenant.code);
    const [webhook] = await receiver.waitFor(1);
    expect(webhook.json.id).toBe(after.id);
    expect(receiver.received).toHaveLength(1);
    expect(await deliveriesOf(f)).toHaveLength(1);
    await receiver.stop();
  });

  it('retries 500, 500 then 200 and delivers on the third attempt with the same webhook-id', async () => {
    const receiver = (await WebhookReceiver.start()).respondWith(
      { status: 500, body: 'boom' },
      { status: 500, body: 'boom' },
    );
    const f = await setUp(receiver);
    const event = await personUpdated(f.tenant.code);
    const received = await receiver.waitFor(3);
    expect(received.map((w) => w.answeredWith)).toEqual([500, 500, 200]);
    expect(new Set(received.map((w) => w.headers['webhook-id']))).toEqual(new Set([event.id]));
    for (const w of received) verify(w, f.endpoint.secret);
    const delivery = await eventually(async () =>
      (await deliveriesOf(f)).find((d: { status: string }) => d.status === 'SUCCEEDED'),
    );
    const detail = (await api.api.get(`/api/v1/webhook-deliveries/${delivery.id}`, { token: f.token })).body;
    expect(
      detail.attempts.map((a: { statusCode: number; outcome: string }) => [a.statusCode, a.outcome]),
    ).toEqual([
      [500, 'FAILED'],
      [500, 'FAILED'],
      [200, 'SUCCEEDED'],
    ]);
    expect(detail.attempts[0]).toMatchObject({ error: 'HTTP 500', responseExcerpt: 'boom' });
    // The success ends the endpoint's failure streak.
    const endpoint = (await api.api.get(`/api/v1/webhook-endpoints/${f.endpoint.id}`, { token: f.token }))
      .body;
    expect(endpoint).toMatchObject({
      status: 'ACTIVE',
      failingSince: null,
      lastSuccessAt: expect.any(String),
    });
    await receiver.stop();
  });

  it('waits as long as Retry-After says on 429', async () => {
    const receiver = (await WebhookReceiver.start()).respondWith({
      status: 429,
      headers: { 'retry-after': '2' },
    });
    const f = await setUp(receiver);
    await personUpdated(f.tenant.code);
    const [first, second] = await receiver.waitFor(2, { timeoutMs: 10_000 });
    // The schedule alone would retry after ~0.2 s; the receiver asked for 2 s.
    expect(second.receivedAt.getTime() - first.receivedAt.getTime()).toBeGreaterThanOrEqual(1900);
    await receiver.stop();
  });

  it('disables the endpoint on 410, with the reason visible', async () => {
    const receiver = (await WebhookReceiver.start()).setDefault({ status: 410 });
    const f = await setUp(receiver);
    await personUpdated(f.tenant.code);
    const endpoint = await eventually(async () => {
      const r = (await api.api.get(`/api/v1/webhook-endpoints/${f.endpoint.id}`, { token: f.token })).body;
      return r.status === 'DISABLED' && r;
    });
    expect(endpoint.disabledReason).toContain('410');
    const [delivery] = await deliveriesOf(f);
    expect(delivery).toMatchObject({ status: 'FAILED', attemptCount: 1, lastStatusCode: 410 });
    await personUpdated(f.tenant.code);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(1);
    await receiver.stop();
  });

  it('marks the delivery failed after the last retry, and replays failed deliveries of the endpoint', async () => {
    const receiver = (await WebhookReceiver.start()).setDefault({ status: 500 });
    const f = await setUp(receiver);
    const since = new Date(Date.now() - 1000).toISOString();
    const event = await personUpdated(f.tenant.code);
    const failed = await eventually(async () =>
      (await deliveriesOf(f)).find((d: { status: string }) => d.status === 'FAILED'),
    );
    expect(failed).toMatchObject({ attemptCount: 4, lastStatusCode: 500, nextAttemptAt: null });
    expect(receiver.received).toHaveLength(4);
    const filtered = await api.api.get(
      `/api/v1/webhook-deliveries?status=FAILED&endpointId=${f.endpoint.id}&notificationTypeCode=PERSON_UPDATED`,
      { token: f.token },
    );
    expect(filtered.body.items.map((d: { id: string }) => d.id)).toEqual([failed.id]);
    problemOf409(
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
      const d = (await api.api.get(`/api/v1/webhook-deliveries/${failed.id}`, { token: f.token })).body;
      return d.status === 'SUCCEEDED' && d;
    });
    expect(done.attempts).toHaveLength(5);

    // A manual retry of a finished delivery sends it once more; a pending one is refused.
    const retried = await api.api.post(
      `/api/v1/webhook-deliveries/${failed.id}/retry`,
      {},
      { token: f.token },
    );
    expect(retried.status).toBe(200);
    await receiver.waitFor(6);
    await receiver.stop();
  });

  it('sends a replayed delivery now, though its job was parked for an hour when the endpoint was disabled', async () => {
    const receiver = (await WebhookReceiver.start()).respondWith({
      status: 429,
      headers: { 'retry-after': '3600' },
    });
    const f = await setUp(receiver);
    const since = new Date(Date.now() - 1000).toISOString();
    const event = await personUpdated(f.tenant.code);
    await eventually(async () => (await deliveriesOf(f))[0]?.nextAttemptAt);
    await api.api.post(`/api/v1/webhook-endpoints/${f.endpoint.id}/disable`, {}, { token: f.token });
    expect(await deliveriesOf(f)).toEqual([expect.objectContaining({ status: 'FAILED' })]);
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

  it('delivers after the receiver comes back, and survives Redis losing every job', async () => {
    const receiver = await WebhookReceiver.start();
    const f = await setUp(receiver);
    await receiver.stop();
    const event = await personUpdated(f.tenant.code);
    // The delivery exists and has failed at least once while the receiver is down…
    await eventually(async () => (await deliveriesOf(f))[0]?.attemptCount >= 1);
    // …then Redis forgets everything (the local Redis keeps nothing on disk).
    const redis = stack.redis();
    const keys = await redis.keys(`{${stack.config.QUEUE_PREFIX}}:*`);
    if (keys.length) await redis.del(...keys);
    await receiver.listen();
    const [webhook] = await receiver.waitFor(1, { timeoutMs: 20_000 });
    expect(webhook.json.id).toBe(event.id);
    verify(webhook, f.endpoint.secret);
    await receiver.stop();
  });

  it('disables an endpoint that has failed without a success for longer than the limit, and says why', async () => {
    const receiver = (await WebhookReceiver.start()).setDefault({ status: 500 });
    const f = await setUp(receiver);
    // The endpoint has been failing for two hours already (limit in this stack: 1 h).
    await (
      await stack.db()
    ).query(
      `UPDATE notifications.webhook_endpoints SET failing_since = now() - interval '2 hours' WHERE id = $1`,
      [f.endpoint.id],
    );
    await personUpdated(f.tenant.code);
    const endpoint = await eventually(async () => {
      const r = (await api.api.get(`/api/v1/webhook-endpoints/${f.endpoint.id}`, { token: f.token })).body;
      return r.status === 'DISABLED' && r;
    });
    expect(endpoint.disabledReason).toMatch(/failing without a success since .* \(limit 1 h\)/);
    const [delivery] = await eventually(async () => {
      const items = await deliveriesOf(f);
      return items[0]?.status === 'FAILED' && items;
    });
    expect(delivery.lastError).toContain('endpoint disabled');
    problemOf409(
      await api.api.post(`/api/v1/webhook-deliveries/${delivery.id}/retry`, {}, { token: f.token }),
      409,
    );
    await receiver.stop();
  });

  it('signs with both secrets during a rotation grace period', async () => {
    const receiver = await WebhookReceiver.start();
    const f = await setUp(receiver);
    const rotated = await api.api.post(
      `/api/v1/webhook-endpoints/${f.endpoint.id}/rotate-secret`,
      {},
      { token: f.token },
    );
    await personUpdated(f.tenant.code);
    const [webhook] = await receiver.waitFor(1);
    expect(String(webhook.headers['webhook-signature']).split(' ')).toHaveLength(2);
    verify(webhook, rotated.body.secret);
    verify(webhook, f.endpoint.secret);
    await receiver.stop();
  });

  it('records failing deliveries while the tenant disables and re-enables their endpoint, without deadlock or error', async () => {
    const receiver = await WebhookReceiver.start();
    receiver.setDefault({ status: 500 });
    const f = await setUp(receiver);
    const events = [];
    for (let i = 0; i < 20; i++) events.push(await personUpdated(f.tenant.code));
    const deliveryCount = async () =>
      Number(
        (
          await (
            await stack.db()
          ).query(`SELECT count(*) AS n FROM notifications.webhook_deliveries WHERE endpoint_id = $1`, [
            f.endpoint.id,
          ])
        )[0].n,
      );
    // Every event fanned out (a delivery row each) and some attempts failing, before the toggling starts.
    await eventually(async () => (await deliveryCount()) === events.length, { what: 'a delivery per event' });
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
        const rows = await (
          await stack.db()
        ).query(`SELECT status FROM notifications.webhook_deliveries WHERE endpoint_id = $1`, [
          f.endpoint.id,
        ]);
        return rows.length === events.length && rows.every((r: { status: string }) => r.status === 'FAILED');
      },
      { what: 'every delivery failed after the endpoint was disabled' },
    );
    await receiver.stop();
  });

  it('protects Bull Board with basic auth and exposes delivery metrics', async () => {
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
    const metrics = await (await fetch(`${notifier.url}/metrics`)).text();
    expect(metrics).toMatch(/webhook_delivery_attempts_total\{outcome="succeeded"\} [1-9]/);
    expect(metrics).toContain('webhook_attempt_duration_seconds_bucket');
    expect(metrics).toContain('webhook_event_to_delivery_seconds_count');
    expect(metrics).toMatch(/queue_jobs\{queue="webhook-deliveries",state="waiting"\}/);
  });
});

function problemOf409(r: { status: number; body: any }, status: number) {
  expect(r.status).toBe(status);
  expect(r.body.status).toBe(status);
}
