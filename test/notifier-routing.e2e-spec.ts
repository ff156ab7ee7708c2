import { DataSource } from 'typeorm';
import { CardApiApp } from '../apps/card-api/src/app.definition';
import {
  changeSettings,
  provisionCard,
  settingsBody,
  setUpCardTenant,
  STANDARD_CODES,
} from './support/card-settings';
import {
  createWebhookEndpoint,
  enableNotifications,
  listDeliveries,
  startApiAndNotifier,
  webhookTenant,
} from './support/builders/webhooks';
import { selectRows } from './support/db';
import { eventually } from './support/http';
import { commitEvent, commitPersonUpdated, eventuallyProcessed } from './support/outbox';
import { RunningApp, TestStack } from './support/stack';
import { verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

/**
 * Which endpoints an event reaches: only those of its own tenant, only those subscribed to its
 * type, and events of every type in the catalog, here a card settings change made through the card API.
 */
describe('notifier: which endpoints an event reaches', () => {
  let stack: TestStack, db: DataSource, api: RunningApp, cards: RunningApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    ({ stack, db, api } = await startApiAndNotifier());
    cards = await stack.startApp(CardApiApp);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await stack.close();
  });

  /** The endpoints the event's deliveries go to. */
  const deliveredTo = async (eventId: string) =>
    (
      await selectRows<{ endpoint_id: string }>(
        db,
        'notifications.webhook_deliveries',
        { event_id: eventId },
        { columns: 'endpoint_id' },
      )
    ).map((r) => r.endpoint_id);

  const cardSettingsChanged = (tenantCode: string) =>
    commitEvent(db, {
      type: 'CARD_SETTINGS_CHANGED',
      tenantCode,
      data: {
        cardId: 'CARD-1',
        changedFields: ['renewable'],
        cause: 'SETTINGS_CHANGE',
        previous: { authorisationTypes: [], renewable: true, xpaysAllowed: false },
        current: { authorisationTypes: [], renewable: false, xpaysAllowed: false },
      },
    });

  it('sends an event only to endpoints subscribed to its type, though the tenant enabled the type', async () => {
    const tenant = await stack.createTenant();
    await enableNotifications(api.api, tenant.token, 'PERSON_UPDATED');
    await enableNotifications(api.api, tenant.token, 'CARD_SETTINGS_CHANGED');
    const personOnly = await createWebhookEndpoint(api.api, tenant.token, {
      url: `${receiver.url}/${tenant.tenant.code}/person-only`,
      notificationTypeCodes: ['PERSON_UPDATED'],
    });
    const everything = await createWebhookEndpoint(api.api, tenant.token, {
      url: `${receiver.url}/${tenant.tenant.code}/everything`,
    });
    const card = await cardSettingsChanged(tenant.tenant.code);
    await eventuallyProcessed(db, card.id);
    expect(await deliveredTo(card.id)).toEqual([everything.id]);

    const person = await commitPersonUpdated(db, tenant.tenant.code);
    await eventuallyProcessed(db, person.id);
    expect((await deliveredTo(person.id)).sort()).toEqual([personOnly.id, everything.id].sort());
    const toPersonOnly = (w: { path: string }) => w.path.endsWith('/person-only');
    const [webhook] = await receiver.waitFor(1, { filter: toPersonOnly });
    expect(webhook.json.id).toBe(person.id);
    await receiver.waitFor(2, { filter: (w) => w.path === `/${tenant.tenant.code}/everything` });
    expect(receiver.received.filter(toPersonOnly)).toHaveLength(1);
  });

  it("never sends one tenant's event to another tenant's endpoint", async () => {
    const acme = await webhookTenant(stack, api.api, receiver.url);
    const other = await webhookTenant(stack, api.api, receiver.url);
    const event = await commitPersonUpdated(db, acme.tenant.code);
    await eventuallyProcessed(db, event.id);
    expect(await deliveredTo(event.id)).toEqual([acme.endpoint.id]);
    const [webhook] = await receiver.waitFor(1, { filter: (w) => w.json?.id === event.id });
    expect(webhook.path).toBe(`/${acme.tenant.code}`);
    verifyWebhook(webhook, acme.endpoint.secret);
    await eventually(async () => (await listDeliveries(api.api, acme.token))[0]?.status === 'SUCCEEDED');
    expect(await listDeliveries(api.api, other.token)).toEqual([]);
    expect(receiver.received.filter((w) => w.path === `/${other.tenant.code}`)).toEqual([]);
  });

  it('delivers a card settings change made through the card API as a signed CARD_SETTINGS_CHANGED webhook', async () => {
    const tenant = await stack.createTenant();
    await enableNotifications(api.api, tenant.token, 'CARD_SETTINGS_CHANGED');
    const endpoint = await createWebhookEndpoint(api.api, tenant.token, {
      url: `${receiver.url}/${tenant.tenant.code}/cards`,
    });
    await setUpCardTenant(cards.api, tenant.token);
    const cardId = await provisionCard(cards.api, tenant.token);
    const changed = await changeSettings(cards.api, tenant, cardId, {
      ...settingsBody('00+ 0A+ 0C- 01+ 20+ 30+'),
      renewable: false,
    });
    expect(changed.status).toBe(200);

    const [webhook] = await receiver.waitFor(1, { filter: (w) => w.path === `/${tenant.tenant.code}/cards` });
    const verified = verifyWebhook(webhook, endpoint.secret);
    expect(verified).toMatchObject({
      type: 'CARD_SETTINGS_CHANGED',
      tenantCode: tenant.tenant.code,
      data: {
        cardId,
        cause: 'SETTINGS_CHANGE',
        changedFields: expect.arrayContaining(['authorisationTypes.0C', 'renewable']),
        previous: { renewable: true },
        current: { renewable: false },
      },
    });
    expect(verified.data.current.authorisationTypes).toEqual(
      STANDARD_CODES.map((serviceCode) => ({ serviceCode, allowed: serviceCode !== '0C' })),
    );
    expect(webhook.headers['webhook-id']).toBe(verified.id);
  });
});
