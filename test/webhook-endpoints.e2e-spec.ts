import { randomUUID } from 'node:crypto';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { startAppWorld } from './support/app-world';
import { createWebhookEndpoint, recordDeliveries } from './support/builders/webhooks';
import { countRows, selectRows } from './support/db';
import { expectProblem } from './support/problems';
import { RunningApp, TestStack } from './support/stack';

describe('notification API: webhook endpoints and deliveries', () => {
  let stack: TestStack, sut: RunningApp, token: string;
  beforeAll(async () => ({ stack, sut, token } = await startAppWorld(NotificationApiApp)));
  afterAll(() => stack.close());

  describe('webhook endpoints', () => {
    it('creates an endpoint with a whsec_ secret shown once, stored sealed', async () => {
      const { token, tenant } = await stack.createTenant();
      const r = await sut.api.post(
        '/api/v1/webhook-endpoints',
        { url: 'http://127.0.0.1:9/hook', description: 'test', notificationTypeCodes: ['PERSON_UPDATED'] },
        { token },
      );
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        url: 'http://127.0.0.1:9/hook',
        status: 'ACTIVE',
        notificationTypeCodes: ['PERSON_UPDATED'],
        description: 'test',
      });
      expect(r.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
      const [row] = await selectRows(
        await stack.db(),
        'notifications.webhook_endpoints',
        { tenant_id: tenant.id },
        { columns: 'secret_sealed' },
      );
      expect(row.secret_sealed).toMatch(/^v1\./);
      expect(row.secret_sealed).not.toContain(r.body.secret.slice(6));
      const got = await sut.api.get(`/api/v1/webhook-endpoints/${r.body.id}`, { token });
      expect(got.body).toEqual(Object.fromEntries(Object.entries(r.body).filter(([k]) => k !== 'secret')));
      expect((await sut.api.get('/api/v1/webhook-endpoints', { token })).body.items).toHaveLength(1);
    });

    it("hides another tenant's endpoint (404) and answers 400 for a malformed id", async () => {
      const a = await stack.createTenant();
      const b = await stack.createTenant();
      const created = await createWebhookEndpoint(sut.api, a.token, { url: 'http://127.0.0.1:9/hook' });
      expectProblem(
        await sut.api.get(`/api/v1/webhook-endpoints/${created.id}`, { token: b.token }),
        404,
        'webhook_endpoint_not_found',
      );
      expectProblem(
        await sut.api.delete(`/api/v1/webhook-endpoints/${created.id}`, { token: b.token }),
        404,
        'webhook_endpoint_not_found',
      );
      expectProblem(
        await sut.api.post(`/api/v1/webhook-endpoints/${created.id}/rotate-secret`, {}, { token: b.token }),
        404,
        'webhook_endpoint_not_found',
      );
      expectProblem(
        await sut.api.get(`/api/v1/webhook-endpoints/not-a-uuid`, { token: a.token }),
        400,
        'validation_failed',
      );
      expect(
        (await sut.api.get(`/api/v1/webhook-endpoints/${created.id}`, { token: a.token })).body.status,
      ).toBe('ACTIVE');
    });

    it('receives in parallel unless asked to order per subject, on creation or later', async () => {
      const { token } = await stack.createTenant();
      const parallel = await createWebhookEndpoint(sut.api, token, { url: 'http://127.0.0.1:9/a' });
      const ordered = await createWebhookEndpoint(sut.api, token, {
        url: 'http://127.0.0.1:9/b',
        ordering: 'SUBJECT',
      });
      expect([parallel.ordering, ordered.ordering]).toEqual(['NONE', 'SUBJECT']);

      const changed = await sut.api.patch(
        `/api/v1/webhook-endpoints/${parallel.id}`,
        { ordering: 'SUBJECT' },
        { token },
      );
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ id: parallel.id, ordering: 'SUBJECT' });
      expect((await sut.api.get(`/api/v1/webhook-endpoints/${parallel.id}`, { token })).body.ordering).toBe(
        'SUBJECT',
      );

      for (const body of [{ ordering: 'FIFO' }, {}, { ordering: 'SUBJECT', url: 'http://127.0.0.1:9/c' }]) {
        expectProblem(
          await sut.api.patch(`/api/v1/webhook-endpoints/${parallel.id}`, body, { token }),
          400,
          'validation_failed',
        );
      }
      expectProblem(
        await sut.api.post(
          '/api/v1/webhook-endpoints',
          { url: 'http://127.0.0.1:9/d', ordering: 'fifo' },
          { token },
        ),
        400,
        'validation_failed',
      );
    });

    it('refuses an endpoint beyond WEBHOOK_MAX_ENDPOINTS_PER_TENANT, and creates none', async () => {
      const limited = await stack.startApp(NotificationApiApp, { WEBHOOK_MAX_ENDPOINTS_PER_TENANT: '2' });
      const { token, tenant } = await stack.createTenant();
      for (const port of [9, 10])
        await createWebhookEndpoint(limited.api, token, { url: `http://127.0.0.1:${port}/hook` });

      const r = await limited.api.post(
        '/api/v1/webhook-endpoints',
        { url: 'http://127.0.0.1:11/hook' },
        { token },
      );

      expectProblem(r, 422, 'webhook_endpoint_limit_reached');
      expect(r.body.detail).toContain('2');
      expect(
        await countRows(await stack.db(), 'notifications.webhook_endpoints', { tenant_id: tenant.id }),
      ).toBe(2);
    });

    it('disables, enables and deletes; a deleted endpoint is gone for the API', async () => {
      const { token } = await stack.createTenant();
      const endpoint = await createWebhookEndpoint(sut.api, token, { url: 'http://127.0.0.1:9/hook' });
      const disabled = await sut.api.post(`/api/v1/webhook-endpoints/${endpoint.id}/disable`, {}, { token });
      expect(disabled.body).toMatchObject({ status: 'DISABLED', disabledReason: 'disabled by the tenant' });
      expect(
        (await sut.api.post(`/api/v1/webhook-endpoints/${endpoint.id}/disable`, {}, { token })).body,
      ).toEqual(disabled.body);
      const enabled = await sut.api.post(`/api/v1/webhook-endpoints/${endpoint.id}/enable`, {}, { token });
      expect(enabled.body).toMatchObject({ status: 'ACTIVE', disabledReason: null });
      expect((await sut.api.delete(`/api/v1/webhook-endpoints/${endpoint.id}`, { token })).status).toBe(204);
      expectProblem(
        await sut.api.get(`/api/v1/webhook-endpoints/${endpoint.id}`, { token }),
        404,
        'webhook_endpoint_not_found',
      );
      expect((await sut.api.get('/api/v1/webhook-endpoints', { token })).body.items).toEqual([]);
    });

    it('validates the body and refuses non-http schemes, and changes nothing', async () => {
      const { token, tenant } = await stack.createTenant();
      expectProblem(
        await sut.api.post(
          '/api/v1/webhook-endpoints',
          { url: 'http://127.0.0.1:9/x', notificationTypeCodes: ['NOPE'] },
          { token },
        ),
        400,
        'validation_failed',
      );
      expectProblem(await sut.api.post('/api/v1/webhook-endpoints', {}, { token }), 400, 'validation_failed');
      const ftp = await sut.api.post('/api/v1/webhook-endpoints', { url: 'ftp://example.com/x' }, { token });
      expectProblem(ftp, 422, 'webhook_url_refused');
      expect(ftp.body.errors[0]).toMatchObject({ field: 'url', code: 'scheme_not_allowed' });
      expectProblem(
        await sut.api.post('/api/v1/webhook-endpoints', { url: 'http://169.254.169.254/latest' }, { token }),
        422,
        'webhook_url_refused',
      );
      // Within 2048 characters as sent, far beyond once percent-encoded (each € becomes %E2%82%AC).
      const long = await sut.api.post(
        '/api/v1/webhook-endpoints',
        { url: `http://127.0.0.1:9/${'€'.repeat(2000)}` },
        { token },
      );
      expectProblem(long, 400, 'validation_failed');
      expect(long.body.errors[0]).toMatchObject({ field: 'url' });
      // PostgreSQL cannot store NUL in text.
      const nul = await sut.api.post(
        '/api/v1/webhook-endpoints',
        { url: 'http://127.0.0.1:9/x', description: 'a\u0000b' },
        { token },
      );
      expectProblem(nul, 400, 'validation_failed');
      expect(nul.body.errors[0]).toMatchObject({ field: 'description' });
      expect(
        await countRows(await stack.db(), 'notifications.webhook_endpoints', { tenant_id: tenant.id }),
      ).toBe(0);
    });
  });

  describe('deliveries', () => {
    it('answers 404 for an unknown delivery, 400 for a bad cursor or filter, and an empty first page', async () => {
      expectProblem(
        await sut.api.get(`/api/v1/webhook-deliveries/${randomUUID()}`, { token }),
        404,
        'webhook_delivery_not_found',
      );
      expectProblem(
        await sut.api.post(`/api/v1/webhook-deliveries/${randomUUID()}/retry`, {}, { token }),
        404,
        'webhook_delivery_not_found',
      );
      expectProblem(
        await sut.api.get('/api/v1/webhook-deliveries?cursor=abc', { token }),
        400,
        'invalid_cursor',
      );
      expectProblem(
        await sut.api.get('/api/v1/webhook-deliveries?status=LOST', { token }),
        400,
        'validation_failed',
      );
      expectProblem(
        await sut.api.get('/api/v1/webhook-deliveries?limit=1000', { token }),
        400,
        'validation_failed',
      );
      const page = await sut.api.get('/api/v1/webhook-deliveries', { token });
      expect(page.body).toEqual({ items: [], nextCursor: null });
    });

    it("finds an event's deliveries by the webhook-id a receiver saw, and only the tenant's own", async () => {
      const { tenant, token } = await stack.createTenant();
      const other = await stack.createTenant();
      const endpoint = await createWebhookEndpoint(sut.api, token, { url: 'http://127.0.0.1:9/hook' });
      const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 9, minute));
      const [, wanted] = await recordDeliveries(await stack.db(), tenant, endpoint.id, [1, 2, 3].map(at));
      const { eventId } = (await sut.api.get(`/api/v1/webhook-deliveries/${wanted}`, { token })).body;

      const found = await sut.api.get(`/api/v1/webhook-deliveries?eventId=${eventId}`, { token });
      expect(found.body.items.map((d: { id: string }) => d.id)).toEqual([wanted]);
      const elsewhere = await sut.api.get(`/api/v1/webhook-deliveries?eventId=${eventId}`, {
        token: other.token,
      });
      expect(elsewhere.body).toEqual({ items: [], nextCursor: null });
      const refused = await sut.api.get('/api/v1/webhook-deliveries?eventId=msg_123', { token });
      expectProblem(refused, 400, 'validation_failed');
      expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'eventId' })]);
    });

    it('keeps to a time window page after page, and refuses a window that ends before it starts', async () => {
      const { tenant, token } = await stack.createTenant();
      const endpoint = await createWebhookEndpoint(sut.api, token, { url: 'http://127.0.0.1:9/hook' });
      const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 9, minute));
      const made = await recordDeliveries(await stack.db(), tenant, endpoint.id, [1, 2, 3, 4, 5].map(at));
      const window = `since=${at(2).toISOString()}&until=${encodeURIComponent('2026-11-27T10:05:00+01:00')}`;
      const first = await sut.api.get(`/api/v1/webhook-deliveries?${window}&limit=2`, { token });
      const second = await sut.api.get(
        `/api/v1/webhook-deliveries?${window}&limit=2&cursor=${first.body.nextCursor}`,
        { token },
      );
      expect([...first.body.items, ...second.body.items].map((d: { id: string }) => d.id)).toEqual([
        made[3],
        made[2],
        made[1],
      ]);
      expect(second.body.nextCursor).toBeNull();

      for (const refused of [
        `since=${at(3).toISOString()}&until=${at(3).toISOString()}`,
        'until=yesterday',
      ]) {
        const r = await sut.api.get(`/api/v1/webhook-deliveries?${refused}`, { token });
        expectProblem(r, 400, 'validation_failed');
        expect(r.body.errors).toEqual([expect.objectContaining({ field: 'until' })]);
      }
    });
  });
});
