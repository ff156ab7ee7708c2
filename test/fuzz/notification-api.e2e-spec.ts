import fc from 'fast-check';
import { DeliveryStatus, WebhookDeliveryEntity, WebhookEndpointEntity } from '@fincore/notifications';
import { NotificationApiApp } from '../../apps/notification-api/src/app.definition';
import { NotificationRows } from '../support/builders/notifications';
import { createWebhookEndpoint, enableNotifications } from '../support/builders/webhooks';
import { eventually } from '../support/http';
import { TestStack } from '../support/stack';
import { testCertificates } from '../support/tls-certificates';
import { expectNoFindings, fuzz, FuzzTarget, fuzzTimeoutMs, loadDoc } from './fuzz-harness';
import { commonHints } from './hints';

/**
 * The notification API against inputs generated from its own OpenAPI document: valid-shaped requests
 * (reaching the tenant's real endpoints and deliveries) and malformed ones.
 */
let stack: TestStack;
let target: FuzzTarget;

const TYPES = ['PERSON_UPDATED', 'CARD_SETTINGS_CHANGED'];
/** Mutual TLS material that reads as valid (random PEM text never does), or its removal. */
const { ca, client } = testCertificates();
const TLS = fc.option(
  fc.constantFrom({ clientCertificate: client.cert, clientKey: client.key, caCertificates: ca }, null),
  { nil: undefined },
);

beforeAll(async () => {
  stack = await TestStack.create();
  const db = await stack.db([WebhookEndpointEntity, WebhookDeliveryEntity]);
  const sut = await stack.startApp(NotificationApiApp);
  const acme = await stack.createTenant();
  await enableNotifications(sut.api, acme.token);
  const endpoints: string[] = [];
  for (let i = 0; i < 6; i++)
    endpoints.push(
      (await createWebhookEndpoint(sut.api, acme.token, { url: `http://127.0.0.1:9/hook-${i}` })).id,
    );
  // the last two only for deletion, so that the other operations keep finding the first three
  const deletable = endpoints.splice(4);
  // deliveries in each status, as the notifier leaves them, for the delivery reads, retry and replay,
  // on an endpoint of their own that no valid-shaped disable or delete reaches
  const rows = new NotificationRows(db);
  const endpoint = await rows.endpointRow(endpoints.pop()!);
  const deliveries: string[] = [];
  for (const status of [
    DeliveryStatus.Pending,
    DeliveryStatus.Failed,
    DeliveryStatus.Failed,
    DeliveryStatus.Succeeded,
  ]) {
    const eventId = await rows.event(acme.tenant, { processed: true });
    deliveries.push((await rows.delivery(endpoint, { eventId, status, attemptCount: 3 })).id);
  }
  const firstPage = await sut.api.get('/api/v1/webhook-deliveries?limit=1', { token: acme.token });
  // A cursor of the event stream, once the events above are below its commit horizon.
  const eventCursor = await eventually(
    async () => (await sut.api.get('/api/v1/events?limit=1', { token: acme.token })).body.nextCursor,
    { what: 'an event stream cursor' },
  );
  const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
  target = {
    specFile: 'test/fuzz/notification-api.e2e-spec.ts',
    baseUrl: sut.url,
    db,
    doc: await loadDoc(sut.url),
    token: acme.token,
    hints: {
      ...commonHints(acme.tenant.code),
      endpointId: fc.constantFrom(...endpoints),
      deliveryId: fc.constantFrom(...deliveries),
      url: fc.nat({ max: 999 }).map((n) => `http://127.0.0.1:9/fuzz-${n}`),
      notificationTypeCode: fc.constantFrom(...TYPES),
      notificationTypeCodes: fc.option(fc.subarray(TYPES, { minLength: 1 }), { nil: undefined }),
      channelCode: fc.constantFrom('WEBHOOK', 'EMAIL'),
      since: fc.constantFrom('2025-01-01T00:00:00Z', anHourAgo),
      until: fc.constant(new Date(Date.now() + 3_600_000).toISOString()),
      limit: fc.integer({ min: 1, max: 100 }),
      cursor: fc.constant(firstPage.body.nextCursor),
      tls: TLS,
    },
    // Signing out ends a portal session; the fuzz calls with a token, which has none to end (or
    // with a tenant header of another tenant, refused before).
    validShapedStatuses: { 'DELETE /api/v1/portal-sessions/current': [400, 403] },
    operationHints: {
      'DELETE /api/v1/webhook-endpoints/{endpointId}': { endpointId: fc.constantFrom(...deletable) },
      // A waiting read answers only when its wait ends: the fuzz reads without waiting.
      'GET /api/v1/events': {
        waitSeconds: fc.constant(0),
        types: fc.constantFrom(...TYPES),
        after: fc.constant(eventCursor),
        since: fc.constant(anHourAgo),
      },
    },
    // after and since exclude each other, which the parameters' schemas cannot say: whole queries
    // give one of them at most.
    queries: {
      'GET /api/v1/events': fc
        .record(
          {
            position: fc.constantFrom({ after: eventCursor }, { since: anHourAgo }, {}),
            types: fc.constantFrom(...TYPES),
            limit: fc.integer({ min: 1, max: 100 }),
          },
          { requiredKeys: ['position'] },
        )
        .map(({ position, ...rest }) => ({ ...position, ...rest })),
    },
  };
});

afterAll(() => stack?.close());

describe('notification API fuzz', () => {
  it(
    'answers valid-shaped requests to every documented operation as documented',
    async () => expectNoFindings(await fuzz(target, 'valid-shaped')),
    fuzzTimeoutMs(15),
  );

  it(
    'rejects malformed requests with problem+json and a stable code, changing nothing',
    async () => expectNoFindings(await fuzz(target, 'malformed')),
    fuzzTimeoutMs(15),
  );
});
