import { randomUUID } from 'node:crypto';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { createPerson } from './support/builders/persons';
import { webhookTenant } from './support/builders/webhooks';
import { ApiClient, expectStatus } from './support/http';
import { outboxEvents } from './support/outbox';
import { OtlpReceiver, ReceivedSpan, SpanKindCode } from './support/otlp-receiver';
import { TestStack } from './support/stack';
import { ReceivedWebhook, WebhookReceiver } from './support/webhook-receiver';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

/** Trace id and parent span id of a webhook's traceparent (the test fails without one). */
function traceOf(webhook: ReceivedWebhook): { traceId: string; parentId: string } {
  const [, traceId, parentId] = TRACEPARENT.exec(String(webhook.headers.traceparent)) ?? [];
  expect(webhook.headers.traceparent).toMatch(TRACEPARENT);
  return { traceId, parentId };
}

const named = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);

/**
 * The apps run as their own processes from the build, configured by the standard OTEL_* variables
 * only, and export over OTLP/HTTP (JSON) to a receiver of the test's: the real exporter path.
 */
describe('tracing on: apps started with OTEL_* variables export over OTLP', () => {
  let stack: TestStack;
  let otlp: OtlpReceiver;
  let receiver: WebhookReceiver;
  let credentials: ApiClient;
  let notifications: ApiClient;

  beforeAll(async () => {
    otlp = await OtlpReceiver.start();
    receiver = await WebhookReceiver.start();
    stack = await TestStack.create();
    const otel = {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    const [c, n] = await Promise.all([
      stack.spawnApp('credentials-api', otel),
      stack.spawnApp('notification-api', otel),
      // The spans must show the receiver's answer: under the tests' 2 s limit a notifier kept off the
      // CPU that long finds its timer due before it reads the answer, and records a timeout.
      stack.spawnApp('notifier', { ...otel, WEBHOOK_TIMEOUT_MS: '10000' }),
    ]);
    credentials = new ApiClient(c.url);
    notifications = new ApiClient(n.url);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await receiver?.stop();
    await otlp?.stop();
  });

  it('the webhook carries the trace of the PATCH that caused it; the trace holds every hop, retries included', async () => {
    const tenant = await webhookTenant(stack, notifications, receiver.url);
    const person = await createPerson(credentials, tenant.token);
    receiver.respondWith({ status: 500 });
    const requestId = `trace-${randomUUID()}`;
    expectStatus(
      await credentials.patch(
        `/api/v1/persons/${person.personId}`,
        { lastName: 'Traced' },
        { token: tenant.token, headers: { 'x-request-id': requestId } },
      ),
      200,
      'PATCH person',
    );

    // The first attempt is answered 500, the retry 200: both carry the request's trace.
    const [failed, succeeded] = await receiver.waitFor(2, {
      filter: (w) => w.json?.data?.personId === person.personId,
    });
    const { traceId } = traceOf(failed);
    expect(traceOf(succeeded).traceId).toBe(traceId);
    expect(traceOf(succeeded).parentId).not.toBe(traceOf(failed).parentId);

    // Each process exports on its own schedule: wait for every hop, not just the last one.
    const spans = await otlp.waitForTrace(
      traceId,
      (s) =>
        s.some((span) => span.attributes['fincore.request_id'] === requestId) &&
        named(s, 'send domain-events').length > 0 &&
        named(s, 'process domain-events').length > 0 &&
        named(s, 'POST webhook').length === 2,
    );
    const server = spans.find((s) => s.attributes['fincore.request_id'] === requestId);
    expect(server).toMatchObject({
      service: 'credentials-api',
      name: 'PATCH /api/v1/persons/:personId',
      kind: SpanKindCode.SERVER,
      parentSpanId: '',
      attributes: {
        'http.request.method': 'PATCH',
        'http.route': '/api/v1/persons/:personId',
        'http.response.status_code': 200,
      },
    });
    const [send] = named(spans, 'send domain-events');
    expect(send).toMatchObject({ kind: SpanKindCode.PRODUCER, parentSpanId: server!.spanId });
    // The outbox row holds the request's context: the hop no async context can make.
    const [row] = await outboxEvents(await stack.db(), { id: String(send.attributes['fincore.event.id']) });
    expect(JSON.parse(row.traceContext!)).toEqual({ traceparent: `00-${traceId}-${server!.spanId}-01` });
    const [fanOut] = named(spans, 'process domain-events');
    expect(fanOut).toMatchObject({
      service: 'notifier',
      kind: SpanKindCode.CONSUMER,
      parentSpanId: send.spanId,
      attributes: { 'fincore.event.id': send.attributes['fincore.event.id'], 'fincore.deliveries.queued': 1 },
    });
    const attempts = named(spans, 'POST webhook');
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({
        service: 'notifier',
        kind: SpanKindCode.CLIENT,
        parentSpanId: fanOut.spanId,
        attributes: {
          'fincore.event.id': send.attributes['fincore.event.id'],
          'server.address': '127.0.0.1',
        },
      });
    }
    // Each webhook's traceparent names the span of the attempt that sent it.
    const byId = new Map(attempts.map((a) => [a.spanId, a]));
    expect(byId.get(traceOf(failed).parentId)).toMatchObject({
      statusCode: 2,
      attributes: { 'http.response.status_code': 500 },
    });
    expect(byId.get(traceOf(succeeded).parentId)).toMatchObject({
      attributes: { 'http.response.status_code': 200 },
    });

    // A manual retry belongs to the retry request's trace, and links back to the event's.
    const deliveryId = String(attempts[0].attributes['fincore.delivery.id']);
    const retryRequestId = `retry-${randomUUID()}`;
    expectStatus(
      await notifications.post(
        `/api/v1/webhook-deliveries/${deliveryId}/retry`,
        {},
        { token: tenant.token, headers: { 'x-request-id': retryRequestId } },
      ),
      200,
      'retry delivery',
    );
    const replayed = (
      await receiver.waitFor(3, { filter: (w) => w.json?.data?.personId === person.personId })
    )[2];
    const replayTrace = traceOf(replayed);
    expect(replayTrace.traceId).not.toBe(traceId);
    const replaySpans = await otlp.waitForTrace(
      replayTrace.traceId,
      (s) =>
        s.some((span) => span.attributes['fincore.request_id'] === retryRequestId) &&
        named(s, 'POST webhook').length === 1,
    );
    const retryServer = replaySpans.find((s) => s.attributes['fincore.request_id'] === retryRequestId);
    expect(retryServer).toMatchObject({ service: 'notification-api', kind: SpanKindCode.SERVER });
    const [replayAttempt] = named(replaySpans, 'POST webhook');
    expect(replayAttempt.spanId).toBe(replayTrace.parentId);
    expect(replayAttempt.links).toEqual([
      expect.objectContaining({
        traceId,
        spanId: send.parentSpanId,
        attributes: { 'fincore.link': 'event_origin' },
      }),
    ]);
  }, 60_000);

  it('exports the spans still buffered on SIGTERM, before the process exits', async () => {
    // A batch delay far beyond the test: only the shutdown flush can export the span.
    const app = await stack.spawnApp('credentials-api', {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '600000',
      OTEL_SERVICE_NAME: 'credentials-under-test',
    });
    const requestId = `flush-${randomUUID()}`;
    const r = await new ApiClient(app.url).get('/api/v1/persons/nobody', {
      headers: { 'x-request-id': requestId },
    });
    expect(r.status).toBe(401);
    expect(await app.stop('SIGTERM')).toBe(0);
    expect(otlp.spans.filter((s) => s.attributes['fincore.request_id'] === requestId)).toEqual([
      expect.objectContaining({
        service: 'credentials-under-test',
        name: 'GET /api/v1/persons/:personId',
        attributes: expect.objectContaining({ 'http.response.status_code': 401 }),
        statusCode: 0,
      }),
    ]);
  }, 60_000);
});

describe('tracing: off without OTEL_* variables', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await TestStack.create();
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.stop();
  });

  it('stores no trace context and sends no traceparent', async () => {
    const [credentials] = await Promise.all([stack.spawnApp('credentials-api'), stack.spawnApp('notifier')]);
    const notifications = await stack.startApp(NotificationApiApp);
    const api = new ApiClient(credentials.url);
    const tenant = await webhookTenant(stack, notifications.api, receiver.url);
    const person = await createPerson(api, tenant.token);
    expectStatus(
      await api.patch(
        `/api/v1/persons/${person.personId}`,
        { lastName: 'Untraced' },
        { token: tenant.token },
      ),
      200,
      'PATCH person',
    );
    const [webhook] = await receiver.waitFor(1, {
      filter: (w) => w.json?.data?.personId === person.personId,
    });
    expect(webhook.headers.traceparent).toBeUndefined();
    expect(webhook.headers.tracestate).toBeUndefined();
    expect(await outboxEvents(await stack.db(), { id: webhook.json.id })).toEqual([
      expect.objectContaining({ traceContext: null }),
    ]);
  }, 90_000);
});
