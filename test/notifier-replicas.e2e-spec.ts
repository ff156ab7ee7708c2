import { OutboxEventEntity } from '@fincore/events';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { succeededAttempts } from './support/builders/replicas';
import { webhookTenant } from './support/builders/webhooks';
import { countRows } from './support/db';
import { eventually } from './support/http';
import { commitPersonUpdated } from './support/outbox';
import { RunningApp, TestStack } from './support/stack';
import { verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

/**
 * Notifier processes from the build (`npm run build` first): several replicas share the work
 * with nothing in memory needed for correctness, and SIGTERM loses no delivery.
 */
describe('notifier replicas and graceful shutdown', () => {
  let stack: TestStack;
  let api: RunningApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await TestStack.create();
    await stack.db([OutboxEventEntity]);
    api = await stack.startApp(NotificationApiApp);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await stack.close();
  });

  /** Commits `count` events one by one; their ids. */
  const emit = async (tenantCode: string, count: number) => {
    const db = await stack.db();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await commitPersonUpdated(db, tenantCode)).id);
    return ids;
  };

  const distinctIds = (path: string) =>
    new Set(receiver.received.filter((w) => w.path === path).map((w) => String(w.headers['webhook-id'])));

  it('two notifier processes share the work and deliver every event, none lost, all signed', async () => {
    const f = await webhookTenant(stack, api.api, receiver.url);
    // A short delay per answer keeps one worker from draining the queue before the other polls.
    receiver.setDefault({ status: 200, body: 'ok', delayMs: 50 });
    const [a, b] = await Promise.all([stack.spawnApp('notifier'), stack.spawnApp('notifier')]);
    const ids = await emit(f.tenant.code, 40);
    const path = `/${f.tenant.code}`;
    await eventually(() => distinctIds(path).size === ids.length, {
      timeoutMs: 30_000,
      what: 'all 40 webhooks',
    });
    expect(distinctIds(path)).toEqual(new Set(ids));
    for (const w of receiver.received.filter((x) => x.path === path)) verifyWebhook(w, f.endpoint.secret);
    // The receiver answers before the notifier records the success: wait for the records too.
    const succeeded = async () =>
      countRows(await stack.db(), 'notifications.webhook_deliveries', {
        tenant_id: f.tenant.id,
        status: 'SUCCEEDED',
      });
    await eventually(async () => (await succeeded()) === 40, { what: '40 deliveries recorded as succeeded' });
    // Counted just after the record commits, so poll until the two processes' counts add up.
    const perProcess = await eventually(
      async () => {
        const counts = await Promise.all([succeededAttempts(a.url), succeededAttempts(b.url)]);
        return counts[0] + counts[1] === 40 && counts;
      },
      { what: '40 successful attempts counted across both processes' },
    );
    expect(Math.min(...perProcess)).toBeGreaterThan(0);
    receiver.setDefault({ status: 200, body: 'ok' });
    await Promise.all([a.stop(), b.stop()]);
  });

  it('loses no delivery when a notifier gets SIGTERM with deliveries in flight', async () => {
    const f = await webhookTenant(stack, api.api, receiver.url);
    const path = `/${f.tenant.code}`;
    // Slow answers keep attempts in flight when the signal arrives.
    receiver.setDefault({ status: 200, body: 'ok', delayMs: 300 });
    const first = await stack.spawnApp('notifier');
    const ids = await emit(f.tenant.code, 10);
    await eventually(() => receiver.received.some((w) => w.path === path), { what: 'a first webhook' });
    expect(await first.stop('SIGTERM')).toBe(0);
    const second = await stack.spawnApp('notifier');
    await eventually(() => distinctIds(path).size === ids.length, {
      timeoutMs: 30_000,
      what: 'all 10 webhooks after the restart',
    });
    expect(distinctIds(path)).toEqual(new Set(ids));
    receiver.setDefault({ status: 200, body: 'ok' });
    await second.stop();
  });
});
