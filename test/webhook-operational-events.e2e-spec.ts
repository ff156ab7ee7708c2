import { DataSource } from 'typeorm';
import { OPERATIONAL_EVENT_TYPES } from '@fincore/events';
import { startApiAndNotifier, tenantWithEndpoints } from './support/builders/webhooks';
import { commitPersonUpdated, expectOutboxEvents } from './support/outbox';
import { RunningApp, TestStack } from './support/stack';
import { ReceivedWebhook, verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

const TYPES = ['PERSON_UPDATED', ...OPERATIONAL_EVENT_TYPES];
const ofType = (type: string) => (w: ReceivedWebhook) => w.json?.type === type;

/**
 * Two endpoints of one tenant taking every type: A, whose receiver the test scripts, and B, which
 * accepts everything and so hears about A.
 */
const receivers: WebhookReceiver[] = [];
afterAll(() => Promise.all(receivers.map((r) => r.stop())));

async function twoEndpoints(stack: TestStack, api: RunningApp) {
  const a = await WebhookReceiver.start();
  const b = await WebhookReceiver.start();
  receivers.push(a, b);
  const f = await tenantWithEndpoints(stack, api.api, TYPES, [{ url: a.url }, { url: b.url }]);
  const [endpointA, endpointB] = f.endpoints;
  return { a, b, f, endpointA, endpointB };
}

describe('operational webhook events', () => {
  describe('disabling and exhaustion', () => {
    let stack: TestStack, db: DataSource, api: RunningApp;
    beforeAll(async () => {
      ({ stack, db, api } = await startApiAndNotifier({ WEBHOOK_DISABLE_AFTER_HOURS: '1' }));
    });
    afterAll(() => stack.close());

    it('tells the other endpoint, verified, that a 410 disabled the first, and never the first', async () => {
      const w = await twoEndpoints(stack, api);
      w.a.setDefault({ status: 410 });
      await commitPersonUpdated(db, w.f.tenant.code);

      const [disabled] = await w.b.waitFor(1, { filter: ofType('WEBHOOK_ENDPOINT_DISABLED') });
      expect(verifyWebhook(disabled, w.endpointB.secret)).toMatchObject({
        type: 'WEBHOOK_ENDPOINT_DISABLED',
        subject: { type: 'endpoint', id: w.endpointA.id },
        data: { endpointId: w.endpointA.id, url: `${w.a.url}/`, reason: 'the receiver answered 410 Gone' },
      });
      await expectOutboxEvents(db, { tenantCode: w.f.tenant.code, type: 'WEBHOOK_ENDPOINT_DISABLED' }, 1);
      expect(w.a.received.map((r) => r.json.type)).toEqual(['PERSON_UPDATED']);
    });

    it('lists each operational type in the catalog and the AsyncAPI document, with a signed example', async () => {
      const { token } = await stack.createTenant();
      const { items } = (await api.api.get('/api/v1/notification-types', { token })).body;
      const asyncApi: any = await (await fetch(`${api.url}/docs/asyncapi.json`)).json();
      for (const type of OPERATIONAL_EVENT_TYPES) {
        expect(items.find((t: { code: string }) => t.code === type).dataSchema.$defs).toBeDefined();
        const [example] = asyncApi.components.messages[type].examples;
        expect(example.payload).toMatchObject({ type, subject: { type: 'endpoint' } });
      }
    });

    it('reports an operator disabling an endpoint', async () => {
      const w = await twoEndpoints(stack, api);
      const r = await api.api.post(
        `/api/v1/webhook-endpoints/${w.endpointA.id}/disable`,
        {},
        { token: w.f.token },
      );
      expect(r.status).toBe(200);

      const [disabled] = await w.b.waitFor(1, { filter: ofType('WEBHOOK_ENDPOINT_DISABLED') });
      expect(verifyWebhook(disabled, w.endpointB.secret).data).toMatchObject({
        endpointId: w.endpointA.id,
        reason: 'disabled by the tenant',
      });
    });

    it('reports a delivery that ran out of retries once, with its last error', async () => {
      const w = await twoEndpoints(stack, api);
      w.a.setDefault({ status: 500 });
      const event = await commitPersonUpdated(db, w.f.tenant.code);

      const [exhausted] = await w.b.waitFor(1, { filter: ofType('WEBHOOK_DELIVERY_EXHAUSTED') });
      expect(verifyWebhook(exhausted, w.endpointB.secret).data).toMatchObject({
        endpointId: w.endpointA.id,
        eventId: event.id,
        notificationTypeCode: 'PERSON_UPDATED',
        attemptCount: 4,
        lastStatusCode: 500,
        lastError: 'HTTP 500',
      });
      await expectOutboxEvents(db, { tenantCode: w.f.tenant.code, type: 'WEBHOOK_DELIVERY_EXHAUSTED' }, 1);
      expect(w.a.received.filter(ofType('PERSON_UPDATED'))).toHaveLength(4);
      expect(w.a.received.filter((r) => r.json.type !== 'PERSON_UPDATED')).toEqual([]);
    });
  });

  describe('failing and recovered', () => {
    let stack: TestStack, db: DataSource, api: RunningApp;
    // Disabled after 1.8 s of failures, so reported as failing after 0.9 s; retries 0.6 s apart (±20 %).
    beforeAll(async () => {
      ({ stack, db, api } = await startApiAndNotifier({
        WEBHOOK_DISABLE_AFTER_HOURS: '0.0005',
        WEBHOOK_RETRY_SCHEDULE: '0.6,0.6,0.6,0.6,0.6',
      }));
    });
    afterAll(() => stack.close());

    it('reports a streak of half the disable period once, and the success after it once', async () => {
      const w = await twoEndpoints(stack, api);
      w.a.respondWith({ status: 500 }, { status: 500 }, { status: 500 });
      await commitPersonUpdated(db, w.f.tenant.code);

      const [failing] = await w.b.waitFor(1, { filter: ofType('WEBHOOK_ENDPOINT_FAILING') });
      const [recovered] = await w.b.waitFor(1, { filter: ofType('WEBHOOK_ENDPOINT_RECOVERED') });
      const failingData = verifyWebhook(failing, w.endpointB.secret).data;
      expect(failingData).toMatchObject({ endpointId: w.endpointA.id, lastError: 'HTTP 500' });
      expect(Date.parse(failingData.disablesAt) - Date.parse(failingData.failingSince)).toBe(1800);
      expect(verifyWebhook(recovered, w.endpointB.secret).data).toMatchObject({ endpointId: w.endpointA.id });
      for (const type of ['WEBHOOK_ENDPOINT_FAILING', 'WEBHOOK_ENDPOINT_RECOVERED'])
        await expectOutboxEvents(db, { tenantCode: w.f.tenant.code, type }, 1);
      await expectOutboxEvents(db, { tenantCode: w.f.tenant.code, type: 'WEBHOOK_ENDPOINT_DISABLED' }, 0);
      expect(w.a.received.map((r) => r.answeredWith)).toEqual([500, 500, 500, 200]);
    });
  });
});
