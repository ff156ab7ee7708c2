import type { DataSource } from 'typeorm';
import { OutboxEventEntity } from '@fincore/events';
import type { TenantEntity } from '@fincore/platform';
import { NotificationApiApp } from '../../../apps/notification-api/src/app.definition';
import { NotifierApp } from '../../../apps/notifier/src/app.definition';
import { ApiClient, ApiResponse, expectStatus } from '../http';
import { RunningApp, TenantFixture, TestStack } from '../stack';
import { WebhookReceiver } from '../webhook-receiver';
import { NotificationRows } from './notifications';

/** The notification API (whose relay publishes the outbox) and the notifier on one stack. */
export interface DeliveryWorld {
  stack: TestStack;
  /** The stack's database, with the outbox entity for committing events. */
  db: DataSource;
  api: RunningApp;
  notifier: RunningApp;
}

/** Starts the notification API and the notifier in-process on a new stack with the settings given. */
export async function startApiAndNotifier(settings: Record<string, string> = {}): Promise<DeliveryWorld> {
  const stack = await TestStack.create(settings);
  const db = await stack.db([OutboxEventEntity]);
  const api = await stack.startApp(NotificationApiApp);
  const notifier = await stack.startApp(NotifierApp);
  return { stack, db, api, notifier };
}

/** As startApiAndNotifier, with one receiver; `close` stops both. */
export async function startWithReceiver(
  receiverOptions: Parameters<typeof WebhookReceiver.start>[0] = {},
): Promise<DeliveryWorld & { receiver: WebhookReceiver; close: () => Promise<void> }> {
  const world = await startApiAndNotifier();
  const receiver = await WebhookReceiver.start(receiverOptions);
  return {
    ...world,
    receiver,
    close: async () => {
      await receiver.stop();
      await world.stack.close();
    },
  };
}

/** Turns a notification type on for the tenant (200 or the test fails). */
export async function enableNotifications(
  api: ApiClient,
  token: string,
  notificationTypeCode = 'PERSON_UPDATED',
  channelCode = 'WEBHOOK',
): Promise<ApiResponse> {
  const r = await api.put(
    '/api/v1/notification-config/enable',
    { notificationTypeCode, channelCode },
    { token },
  );
  return expectStatus(r, 200, `enable ${notificationTypeCode}/${channelCode}`);
}

export interface WebhookEndpointInput {
  url: string;
  description?: string;
  notificationTypeCodes?: string[];
  rateLimit?: number | null;
  signatureSchemes?: string[];
  ordering?: 'NONE' | 'SUBJECT';
  filter?: unknown;
  tls?: unknown;
  payload?: 'FULL' | 'THIN';
}

/** Registers a webhook endpoint (201 or the test fails); the answer holds its id and secret. */
export async function createWebhookEndpoint(
  api: ApiClient,
  token: string,
  input: WebhookEndpointInput,
): Promise<{ id: string; secret: string; [field: string]: unknown }> {
  const r = await api.post('/api/v1/webhook-endpoints', input, { token });
  return expectStatus(r, 201, `register ${input.url}`).body;
}

export type WebhookTenant = TenantFixture & {
  endpoint: { id: string; secret: string };
  /** The enable answer's body; null when `enable` was false. */
  config: Record<string, unknown> | null;
};

/**
 * A new tenant with an endpoint at `<baseUrl>/<tenant code>` and, unless `enable` is false,
 * PERSON_UPDATED webhooks turned on: the one way the specs enable and register.
 */
export async function webhookTenant(
  stack: TestStack,
  api: ApiClient,
  baseUrl: string,
  options: { enable?: boolean; endpoint?: Omit<WebhookEndpointInput, 'url'> } = {},
): Promise<WebhookTenant> {
  const fixture = await stack.createTenant();
  const config = options.enable !== false ? (await enableNotifications(api, fixture.token)).body : null;
  const endpoint = await createWebhookEndpoint(api, fixture.token, {
    url: `${baseUrl}/${fixture.tenant.code}`,
    ...options.endpoint,
  });
  return { ...fixture, endpoint, config };
}

/** The fields of a delivery (as the API shows it) that the specs read. */
export interface DeliveryView {
  id: string;
  eventId: string;
  status: string;
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
}

export interface AttemptView {
  statusCode: number | null;
  outcome: string;
  [field: string]: unknown;
}

/** The tenant's deliveries, newest first (first page), filtered by the query string if given. */
export async function listDeliveries(api: ApiClient, token: string, query = ''): Promise<DeliveryView[]> {
  return (await api.get(`/api/v1/webhook-deliveries${query}`, { token })).body.items;
}

/** One delivery with its attempts. */
export async function getDelivery(
  api: ApiClient,
  token: string,
  deliveryId: string,
): Promise<DeliveryView & { attempts: AttemptView[]; requestBody: string | null }> {
  return (await api.get(`/api/v1/webhook-deliveries/${deliveryId}`, { token })).body;
}

export interface EndpointView {
  id: string;
  status: string;
  disabledReason: string | null;
  failingSince: string | null;
  lastSuccessAt: string | null;
}

export async function getWebhookEndpoint(
  api: ApiClient,
  token: string,
  endpointId: string,
): Promise<EndpointView> {
  return (await api.get(`/api/v1/webhook-endpoints/${endpointId}`, { token })).body;
}

/** A new tenant with `types` enabled and one endpoint per input, in that order. */
export async function tenantWithEndpoints(
  stack: TestStack,
  api: ApiClient,
  types: string[],
  inputs: WebhookEndpointInput[],
): Promise<TenantFixture & { endpoints: Array<{ id: string; secret: string }> }> {
  const fixture = await stack.createTenant();
  for (const type of types) await enableNotifications(api, fixture.token, type);
  const endpoints = [];
  for (const input of inputs) endpoints.push(await createWebhookEndpoint(api, fixture.token, input));
  return { ...fixture, endpoints };
}

/**
 * One delivery per instant to the endpoint, each of an event of its own, written into the tables
 * as the notifier leaves them after one attempt, created at that instant: lists and replays over a
 * time window without waiting for real deliveries. Answers their ids in the order of `createdAts`.
 */
export async function recordDeliveries(
  db: DataSource,
  tenant: TenantEntity,
  endpointId: string,
  createdAts: Date[],
  status: 'FAILED' | 'SUCCEEDED' = 'FAILED',
): Promise<string[]> {
  const rows = new NotificationRows(db);
  const ids: string[] = [];
  for (const createdAt of createdAts) {
    const eventId = await rows.event(tenant, { processed: true, occurredAt: createdAt });
    const [{ id }]: Array<{ id: string }> = await db.query(
      `INSERT INTO notifications.webhook_deliveries
         (id, tenant_id, endpoint_id, event_id, notification_type_code, event_occurred_at, status, attempt_count, created_at)
       VALUES (gen_random_uuid(), $1, $2, $3, 'PERSON_UPDATED', $4, $5, 1, $4) RETURNING id`,
      [tenant.id, endpointId, eventId, createdAt, status],
    );
    ids.push(id);
  }
  return ids;
}
