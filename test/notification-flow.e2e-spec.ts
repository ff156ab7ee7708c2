import { Webhook } from 'standardwebhooks';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { NotifierApp } from '../apps/notifier/src/app.definition';
import { webhookTenant } from './support/builders/webhooks';
import { untilReadsWait } from './support/event-stream';
import { RunningApp, TestStack } from './support/stack';
import { WebhookReceiver } from './support/webhook-receiver';

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
