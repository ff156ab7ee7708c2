import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createWebhookEndpoint, startWithReceiver, webhookTenant } from './support/builders/webhooks';
import { countRows } from './support/db';
import { commitEvent, eventuallyProcessed } from './support/outbox';
import { expectProblem } from './support/problems';
import { RunningApp, TestStack } from './support/stack';
import { verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

const CREDENTIALS_CHANGED = { path: 'data.changedFields', contains: 'credentials.status' };

describe('webhook endpoints: payload filters', () => {
  let stack: TestStack,
    db: DataSource,
    api: RunningApp,
    receiver: WebhookReceiver,
    close: () => Promise<void>;
  beforeAll(async () => {
    ({ stack, db, api, receiver, close } = await startWithReceiver());
  });
  afterAll(() => close());

  const personUpdated = (tenantCode: string, changedFields: string[]) =>
    commitEvent(db, { type: 'PERSON_UPDATED', tenantCode, data: { personId: randomUUID(), changedFields } });

  it('delivers only the events that pass the filter; the others create no delivery', async () => {
    const f = await webhookTenant(stack, api.api, receiver.url, {
      endpoint: { filter: CREDENTIALS_CHANGED },
    });
    const renamed = await personUpdated(f.tenant.code, ['lastName']);
    const invalidated = await personUpdated(f.tenant.code, ['credentials.status']);

    const [webhook] = await receiver.waitFor(1, { filter: (w) => w.path === `/${f.tenant.code}` });
    expect(verifyWebhook(webhook, f.endpoint.secret)).toMatchObject({ id: invalidated.id });
    await eventuallyProcessed(db, renamed.id);
    expect(await countRows(db, 'notifications.webhook_deliveries', { event_id: renamed.id })).toBe(0);
    expect(receiver.received.filter((w) => w.path === `/${f.tenant.code}`)).toHaveLength(1);
  });

  it('shows the filter, replaces it and removes it with null', async () => {
    const { token } = await stack.createTenant();
    const created = await createWebhookEndpoint(api.api, token, {
      url: receiver.url,
      filter: CREDENTIALS_CHANGED,
    });
    expect(created.filter).toEqual(CREDENTIALS_CHANGED);
    const other = {
      any: [
        { path: 'subject.type', in: ['card'] },
        { path: 'data.credentials', exists: true },
      ],
    };

    const replaced = await api.api.patch(
      `/api/v1/webhook-endpoints/${created.id}`,
      { filter: other },
      { token },
    );
    expect(replaced.body.filter).toEqual(other);
    const removed = await api.api.patch(
      `/api/v1/webhook-endpoints/${created.id}`,
      { filter: null },
      { token },
    );
    expect(removed.body.filter).toBeNull();
    expect((await api.api.get(`/api/v1/webhook-endpoints/${created.id}`, { token })).body.filter).toBeNull();
  });

  it.each([
    [
      {
        all: [
          { path: 'type', equals: 'X' },
          { path: 'tenantCode', equals: 'X' },
        ],
      },
      'filter.all.1.path',
      'tenantCode',
    ],
    [{ any: [{ path: 'type', startsWith: 'PERSON' }] }, 'filter.any.0.startsWith', 'startsWith'],
    [{ path: 'data.x', in: [] }, 'filter.in', '1 to 50'],
    [
      { all: [{ all: [{ all: [{ all: [{ path: 'type', exists: true }] }] }] }] },
      'filter.all.0.all.0.all.0.all',
      'too deep',
    ],
  ])('refuses %j naming where it is wrong, and registers nothing', async (filter, field, says) => {
    const { token, tenant } = await stack.createTenant();
    const r = await api.api.post('/api/v1/webhook-endpoints', { url: receiver.url, filter }, { token });

    expectProblem(r, 400, 'validation_failed');
    expect(r.body.errors).toEqual([{ field, message: expect.stringContaining(says) }]);
    expect(await countRows(db, 'notifications.webhook_endpoints', { tenant_id: tenant.id })).toBe(0);
  });
});
