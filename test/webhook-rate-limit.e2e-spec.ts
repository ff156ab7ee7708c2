import type { DataSource } from 'typeorm';
import {
  createWebhookEndpoint,
  listDeliveries,
  startApiAndNotifier,
  webhookTenant,
} from './support/builders/webhooks';
import { eventually, expectStatus } from './support/http';
import { aheadOfPace } from './support/paced-webhooks';
import { commitPersonUpdated } from './support/outbox';
import { RunningApp, TestStack } from './support/stack';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * Per-endpoint delivery rate limits and Retry-After pauses, seen from real receivers: a limited
 * endpoint gets no more than its rate while others are served at once, with one notifier or two
 * (the notifier in-process, and from the build: `npm run build` first).
 */
const JITTER_MS = 250;

describe('webhook endpoint rate limits', () => {
  let stack: TestStack, db: DataSource, api: RunningApp, notifier: RunningApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ({ stack, db, api, notifier } = await startApiAndNotifier());
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await stack.close();
  });

  const emit = async (tenantCode: string, count: number) => {
    for (let i = 0; i < count; i++) await commitPersonUpdated(db, tenantCode);
  };
  const arrivedAt = (path: string) => receiver.received.filter((w) => w.path === path);

  /**
   * How far the endpoint's webhooks were sent ahead of the limit of 2 per second: every pair of
   * sends at least 500 ms apart per interval between them, less an allowance for the moment between
   * the pacer letting an attempt go (on Redis's clock) and the notifier stamping its start. Measured
   * where the limit is kept, at the sender: an arrival's time also carries the receiver's own event
   * loop, which on a loaded machine holds two requests and reads them together. The first `skip`
   * sends (before the limit was set) are left out.
   */
  const aheadOfTwoPerSecond = async (endpointId: string, skip: number, count: number) => {
    const sent = await eventually(
      async () => {
        const rows: Array<{ started_at: Date }> = await db.query(
          `SELECT a.started_at FROM notifications.webhook_delivery_attempts a
             JOIN notifications.webhook_deliveries d ON d.id = a.delivery_id
            WHERE d.endpoint_id = $1 ORDER BY a.started_at`,
          [endpointId],
        );
        return rows.length === skip + count && rows.map((r) => new Date(r.started_at).getTime());
      },
      { what: `${skip + count} attempts recorded` },
    );
    return aheadOfPace(sent.slice(skip), 500);
  };

  /**
   * One delivery to the endpoint before it is limited, so each notifier has made its first request
   * (resolving, connecting) there: a first request is slower, and a late first arrival would count
   * windows that no receiver sees.
   */
  const warmUp = async (tenantCode: string, path: string, count = 1) => {
    const before = arrivedAt(path).length;
    await emit(tenantCode, count);
    await eventually(() => arrivedAt(path).length === before + count, { what: 'the warm-up webhooks' });
    return before + count;
  };

  const limitTo = async (token: string, endpointId: string, rateLimit: number | null) =>
    expectStatus(
      await api.api.patch(`/api/v1/webhook-endpoints/${endpointId}`, { rateLimit }, { token }),
      200,
      'set the rate limit',
    ).body;

  it('delivers to a limited endpoint at its rate while unlimited endpoints, of its tenant or another, get theirs at once', async () => {
    const limited = await webhookTenant(stack, api.api, receiver.url);
    const limitedPath = `/${limited.tenant.code}`;
    const warm = await warmUp(limited.tenant.code, limitedPath);
    expect(await limitTo(limited.token, limited.endpoint.id, 2)).toMatchObject({ rateLimit: 2 });
    const sameTenantPath = `/${limited.tenant.code}-unlimited`;
    await createWebhookEndpoint(api.api, limited.token, { url: receiver.url + sameTenantPath });
    const other = await webhookTenant(stack, api.api, receiver.url);
    const otherPath = `/${other.tenant.code}`;

    await Promise.all([emit(limited.tenant.code, 14), emit(other.tenant.code, 14)]);

    await eventually(() => arrivedAt(sameTenantPath).length === 14 && arrivedAt(otherPath).length === 14, {
      timeoutMs: 20_000,
      what: 'every webhook to the unlimited endpoints',
    });
    // 14 at 2 per second take more than six seconds: the limited endpoint is still draining.
    expect(arrivedAt(limitedPath).length).toBeLessThan(warm + 14);
    await eventually(() => arrivedAt(limitedPath).length === warm + 14, {
      timeoutMs: 30_000,
      what: 'every webhook to the limited endpoint',
    });
    expect(await aheadOfTwoPerSecond(limited.endpoint.id, warm, 14)).toBeLessThanOrEqual(JITTER_MS);
  });

  it('holds the limit across two notifier processes', async () => {
    await notifier.close();
    const f = await webhookTenant(stack, api.api, receiver.url);
    const path = `/${f.tenant.code}`;
    const [a, b] = await Promise.all([stack.spawnApp('notifier'), stack.spawnApp('notifier')]);
    // Slow answers spread the warm-up over both processes.
    receiver.setDefault({ status: 200, body: 'ok', delayMs: 100 });
    const warm = await warmUp(f.tenant.code, path, 6);
    receiver.setDefault({ status: 200, body: 'ok' });
    await limitTo(f.token, f.endpoint.id, 2);

    await emit(f.tenant.code, 12);
    await eventually(() => arrivedAt(path).length === warm + 12, { timeoutMs: 30_000, what: '12 webhooks' });

    expect(await aheadOfTwoPerSecond(f.endpoint.id, warm, 12)).toBeLessThanOrEqual(JITTER_MS);
    // Counted just after each success is recorded: poll until the two processes' counts add up.
    const attempts = await eventually(
      async () => {
        const counts = await Promise.all([a.url, b.url].map(succeededAttempts));
        return counts[0] + counts[1] === warm + 12 && counts;
      },
      { what: 'every successful attempt counted across both processes' },
    );
    expect(Math.min(...attempts)).toBeGreaterThan(0);
    await Promise.all([a.stop(), b.stop()]);
  }, 90_000);

  /** Successful attempts one process made, from its own Prometheus counter. */
  const succeededAttempts = async (url: string) => {
    const metrics = await (await fetch(`${url}/metrics`)).text();
    const match = /^webhook_delivery_attempts_total\{outcome="succeeded"\} (\d+)$/m.exec(metrics);
    return match ? Number(match[1]) : 0;
  };
});

describe('Retry-After from a receiver', () => {
  let stack: TestStack, db: DataSource, api: RunningApp;
  let slow: WebhookReceiver, healthy: WebhookReceiver;

  beforeAll(async () => {
    ({ stack, db, api } = await startApiAndNotifier());
    [slow, healthy] = await Promise.all([WebhookReceiver.start(), WebhookReceiver.start()]);
  });
  afterAll(async () => {
    await Promise.all([slow.stop(), healthy.stop()]);
    await stack.close();
  });

  it("pauses that endpoint's other deliveries too, and no other endpoint's", async () => {
    const f = await webhookTenant(stack, api.api, slow.url);
    await createWebhookEndpoint(api.api, f.token, { url: `${healthy.url}/${f.tenant.code}` });
    slow.respondWith({ status: 429, headers: { 'retry-after': '4' }, body: 'slow down' });

    await commitPersonUpdated(db, f.tenant.code);
    const [refused] = await slow.waitFor(1);
    // The pause is in place before the attempt is recorded, so once the API shows the 429 it holds.
    await eventually(
      async () => (await listDeliveries(api.api, f.token)).some((d) => d.lastStatusCode === 429),
      {
        what: 'the 429 recorded',
      },
    );
    for (let i = 0; i < 4; i++) await commitPersonUpdated(db, f.tenant.code);

    await healthy.waitFor(5);
    expect(slow.received).toHaveLength(1);
    const later = await slow.waitFor(6, { timeoutMs: 20_000 });
    const sincePause = later.slice(1).map((w) => w.receivedAt.getTime() - refused.receivedAt.getTime());
    // Retry-After is 4 s; a second of margin for the clocks' rounding, none for an early send.
    expect(Math.min(...sincePause)).toBeGreaterThanOrEqual(3000);
    expect(new Set(later.map((w) => w.headers['webhook-id'])).size).toBe(5);
  });
});
