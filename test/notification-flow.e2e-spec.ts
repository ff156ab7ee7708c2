import { Webhook } from 'standardwebhooks';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { NotifierApp } from '../apps/notifier/src/app.definition';
import { getDelivery, listDeliveries, webhookTenant } from './support/builders/webhooks';
import { eventually } from './support/http';
import { untilReadsWait } from './support/event-stream';
import { RunningApp, TestStack } from './support/stack';
import { type ReceivedWebhook, WebhookReceiver } from './support/webhook-receiver';

/** The whole flow over HTTP only: enable, register, invalidate credentials, the signed webhook arrives. */
describe('notification flow: credentials invalidation to signed webhook', () => {
  let stack: TestStack;
  let credentials: RunningApp;
  let notifications: RunningApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await TestStack.create();
    credentials = await stack.startApp(CredentialsApiApp);
    notifications = await stack.startApp(NotificationApiApp);
    await stack.startApp(NotifierApp);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await stack.close();
  });

  it('enable PERSON_UPDATED/WEBHOOK, register a receiver, invalidate credentials: the signed webhook arrives', async () => {
    const { token, endpoint, config } = await webhookTenant(stack, notifications.api, receiver.url);
    expect(config).toMatchObject({
      notificationTypeCode: 'PERSON_UPDATED',
      channelCode: 'WEBHOOK',
      enabled: true,
    });

    const person = { personId: 'person-4711', username: 'ada.lovelace', password: 'analytical engine 1843' };
    expect(
      (await credentials.api.post('/api/v1/persons', { ...person, firstName: 'Ada' }, { token })).status,
    ).toBe(201);
    const invalidated = await credentials.api.post('/api/v1/credentials/invalidate', person, { token });
    expect(invalidated.status).toBe(200);

    const [webhook] = await receiver.waitFor(1, {
      filter: (w) => w.json?.data?.changedFields?.includes('credentials.status'),
    });
    const verified = new Webhook(endpoint.secret).verify(
      webhook.body,
      webhook.headers as Record<string, string>,
    ) as any;
    expect(verified).toMatchObject({
      type: 'PERSON_UPDATED',
      data: { personId: 'person-4711', credentials: { status: 'INVALIDATED' } },
    });
    expect(webhook.body).not.toContain(person.password);
    expect(webhook.headers['webhook-id']).toBe(verified.id);
  });

  it("shows each attempt's headers as sent and the body as the endpoint receives it, failures and the success alike", async () => {
    const { token, endpoint, tenant } = await webhookTenant(stack, notifications.api, receiver.url);
    const failing = { status: 500, body: 'not yet' };
    receiver.respondWithFor(`/${tenant.code}`, failing, failing);
    const person = { personId: 'person-4713', username: 'katherine.j', password: 'orbital mechanics 1962' };
    expect((await credentials.api.post('/api/v1/persons', person, { token })).status).toBe(201);
    expect((await credentials.api.post('/api/v1/credentials/invalidate', person, { token })).status).toBe(
      200,
    );
    const toTenant = (w: ReceivedWebhook) => w.path === `/${tenant.code}`;
    const [delivery] = await eventually(async () => {
      const deliveries = await listDeliveries(notifications.api, token);
      return deliveries.length > 0 && deliveries;
    });

    const shown = await eventually(async () => {
      const d = await getDelivery(notifications.api, token, delivery.id);
      return d.status === 'SUCCEEDED' && d;
    });
    // Attempts of one delivery go one after the other: the receiver saw them in their order.
    const received = receiver.received.filter(toTenant);
    const sent = (w: ReceivedWebhook) =>
      Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, w.headers[h]]),
      );
    expect(shown.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
    expect(shown.attempts.map((a) => a.requestHeaders)).toEqual(
      received.map((w) => expect.objectContaining({ ...sent(w), 'content-type': 'application/json' })),
    );
    expect(JSON.stringify(shown)).not.toContain(endpoint.secret);
    expect(JSON.parse(String(shown.requestBody))).toEqual(JSON.parse(received[received.length - 1].body));
  });

  it('wakes a waiting read of GET /api/v1/events when a change through the API commits, before the wait ends', async () => {
    const { token } = await webhookTenant(stack, notifications.api, receiver.url);
    const person = { personId: 'person-4712', username: 'grace.hopper', password: 'compiler 1952 cobol' };
    expect((await credentials.api.post('/api/v1/persons', person, { token })).status).toBe(201);
    const { nextCursor } = (await notifications.api.get('/api/v1/events?limit=100', { token })).body;

    const started = Date.now();
    const waiting = notifications.api.get(
      `/api/v1/events?waitSeconds=20${nextCursor ? `&after=${nextCursor}` : ''}`,
      { token },
    );
    await untilReadsWait(notifications.url);
    const patch = { phone: '+4930555000' };
    expect((await credentials.api.patch(`/api/v1/persons/${person.personId}`, patch, { token })).status).toBe(
      200,
    );
    const answer = await waiting;
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(answer.status).toBe(200);
    expect(answer.body.items).toEqual([
      expect.objectContaining({
        event: expect.objectContaining({
          type: 'PERSON_UPDATED',
          data: expect.objectContaining({ changedFields: ['phone'] }),
        }),
      }),
    ]);
  });
});
