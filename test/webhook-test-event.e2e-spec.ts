import { countRows } from './support/db';
import {
  createWebhookEndpoint,
  DeliveryWorld,
  getDelivery,
  startApiAndNotifier,
  webhookTenant,
} from './support/builders/webhooks';
import { eventually } from './support/http';
import { eventuallyProcessed } from './support/outbox';
import { expectProblem } from './support/problems';
import { verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

/** POST /webhook-endpoints/{id}/test: one signed WEBHOOK_TEST event, to that endpoint alone. */
describe('notification API: test events', () => {
  let world: DeliveryWorld, receiver: WebhookReceiver;
  beforeAll(async () => {
    world = await startApiAndNotifier();
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await world.stack.close();
  });

  it('sends a signed test event to the one endpoint, recorded like any delivery', async () => {
    const f = await webhookTenant(world.stack, world.api.api, receiver.url);
    await createWebhookEndpoint(world.api.api, f.token, { url: `${receiver.url}/other` });
    const r = await world.api.api.post(
      `/api/v1/webhook-endpoints/${f.endpoint.id}/test`,
      {},
      { token: f.token },
    );
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ endpointId: f.endpoint.id, notificationTypeCode: 'WEBHOOK_TEST' });

    const [webhook] = await receiver.waitFor(1, { filter: (w) => w.path === `/${f.tenant.code}` });
    const envelope = verifyWebhook(webhook, f.endpoint.secret);
    expect(envelope).toMatchObject({
      id: r.body.eventId,
      type: 'WEBHOOK_TEST',
      subject: { type: 'endpoint', id: f.endpoint.id },
      data: { endpointId: f.endpoint.id, message: expect.stringContaining('test event') },
    });
    const delivered = await eventually(async () => {
      const d = await getDelivery(world.api.api, f.token, r.body.id);
      return d.status === 'SUCCEEDED' && d;
    });
    expect(delivered.attempts).toEqual([expect.objectContaining({ statusCode: 200, outcome: 'SUCCEEDED' })]);
    // Its fan-out finds nobody subscribed: no delivery to the tenant's other endpoint, ever.
    await eventuallyProcessed(world.db, r.body.eventId);
    expect(await countRows(world.db, 'notifications.webhook_deliveries', { event_id: r.body.eventId })).toBe(
      1,
    );
    expect(receiver.received.filter((w) => w.path === `/${f.tenant.code}/other`)).toEqual([]);
    const stream = await world.api.api.get('/api/v1/events?waitSeconds=0', { token: f.token });
    expect(stream.body.items.map((i: { event: { type: string } }) => i.event.type)).not.toContain(
      'WEBHOOK_TEST',
    );
  });

  it("refuses another tenant's endpoint (404), a disabled one (409) and a read-only token (403), sending nothing", async () => {
    const f = await webhookTenant(world.stack, world.api.api, receiver.url);
    const stranger = await world.stack.createTenant();
    const test = (id: string, token: string) =>
      world.api.api.post(`/api/v1/webhook-endpoints/${id}/test`, {}, { token });
    expectProblem(await test(f.endpoint.id, stranger.token), 404, 'webhook_endpoint_not_found');
    expectProblem(
      await test(f.endpoint.id, await f.tokenWith(['notifications:read'])),
      403,
      'insufficient_scope',
    );
    await world.api.api.post(`/api/v1/webhook-endpoints/${f.endpoint.id}/disable`, {}, { token: f.token });
    expectProblem(await test(f.endpoint.id, f.token), 409, 'webhook_endpoint_disabled');
    expect(
      await countRows(world.db, 'notifications.webhook_deliveries', { endpoint_id: f.endpoint.id }),
    ).toBe(0);
    // The disabling itself is an event (WEBHOOK_ENDPOINT_DISABLED); no test event was written.
    expect(
      await countRows(world.db, 'events.outbox', { tenant_code: f.tenant.code, type: 'WEBHOOK_TEST' }),
    ).toBe(0);
  });

  it('is no type a tenant can subscribe to', async () => {
    const f = await webhookTenant(world.stack, world.api.api, receiver.url, { enable: false });
    const enable = await world.api.api.put(
      '/api/v1/notification-config/enable',
      { notificationTypeCode: 'WEBHOOK_TEST', channelCode: 'WEBHOOK' },
      { token: f.token },
    );
    expectProblem(enable, 400, 'validation_failed');
    const types = await world.api.api.get('/api/v1/notification-types', { token: f.token });
    expect(types.body.items.map((t: { code: string }) => t.code)).not.toContain('WEBHOOK_TEST');
  });
});
