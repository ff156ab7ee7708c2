import { randomUUID } from 'node:crypto';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { RunningApp, TestStack } from './support/stack';

const problemOf = (r: { status: number; headers: Headers; body: any }, status: number, code: string) => {
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ status, code });
  expect(r.status).toBe(status);
};

describe('notification API: configuration, endpoints and deliveries', () => {
  let stack: TestStack;
  let sut: RunningApp;
  let token: string;

  const enable = (body: unknown, t = token, headers: Record<string, string> = {}) =>
    sut.api.put('/api/v1/notification-config/enable', body, { token: t, headers });
  const configRows = async (tenantId: string) =>
    (await stack.db()).query(`SELECT * FROM notifications.notification_configs WHERE tenant_id = $1`, [
      tenantId,
    ]);

  beforeAll(async () => {
    stack = await TestStack.create();
    sut = await stack.startApp(NotificationApiApp);
    token = (await stack.createTenant()).token;
  });
  afterAll(() => stack.close());

  describe('PUT /api/v1/notification-config/enable (the spec operation)', () => {
    it('enables the combination, echoes both codes, and is idempotent without moving enabledAt', async () => {
      const { token, tenant } = await stack.createTenant();
      const first = await enable({ notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' }, token);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        notificationTypeCode: 'PERSON_UPDATED',
        channelCode: 'WEBHOOK',
        enabled: true,
      });
      const second = await enable({ notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' }, token);
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      expect(await configRows(tenant.id)).toHaveLength(1);
      const list = await sut.api.get('/api/v1/notification-config', { token });
      expect(list.body.items).toEqual([first.body]);
    });

    it('emits no event', async () => {
      const { token, tenant } = await stack.createTenant();
      await enable({ notificationTypeCode: 'CARD_SETTINGS_CHANGED', channelCode: 'WEBHOOK' }, token);
      const events = await (
        await stack.db()
      ).query(`SELECT 1 FROM events.outbox WHERE tenant_code = $1`, [tenant.code]);
      expect(events).toHaveLength(0);
    });

    it('answers 400 naming the allowed values for an unknown type or channel, and changes nothing', async () => {
      const { token, tenant } = await stack.createTenant();
      const badType = await enable({ notificationTypeCode: 'PERSON_DELETED', channelCode: 'WEBHOOK' }, token);
      problemOf(badType, 400, 'validation_failed');
      expect(badType.body.errors).toEqual([
        expect.objectContaining({
          field: 'notificationTypeCode',
          message: expect.stringContaining('PERSON_UPDATED, CARD_SETTINGS_CHANGED'),
        }),
      ]);
      const badChannel = await enable(
        { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'PIGEON' },
        token,
      );
      problemOf(badChannel, 400, 'validation_failed');
      expect(badChannel.body.errors[0]).toMatchObject({
        field: 'channelCode',
        message: expect.stringContaining('WEBHOOK'),
      });
      problemOf(await enable({ notificationTypeCode: 'PERSON_UPDATED' }, token), 400, 'validation_failed');
      problemOf(
        await enable({ notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK', extra: 1 }, token),
        400,
        'validation_failed',
      );
      expect(await configRows(tenant.id)).toHaveLength(0);
    });

    it('refuses a known channel that is not implemented with 422, localised, and changes nothing', async () => {
      const { token, tenant } = await stack.createTenant();
      const r = await enable({ notificationTypeCode: 'PERSON_UPDATED', channelCode: 'EMAIL' }, token, {
        'accept-language': 'de',
      });
      problemOf(r, 422, 'notification_channel_not_implemented');
      expect(r.body.detail).toContain('EMAIL');
      expect(r.body.title).toBe('Kanal nicht implementiert');
      expect(await configRows(tenant.id)).toHaveLength(0);
    });

    it('needs a token with notifications:write', async () => {
      const fixture = await stack.createTenant();
      const readOnly = await fixture.tokenWith(['notifications:read']);
      problemOf(
        await enable({ notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' }, readOnly),
        403,
        'insufficient_scope',
      );
      problemOf(
        await sut.api.put('/api/v1/notification-config/enable', {
          notificationTypeCode: 'PERSON_UPDATED',
          channelCode: 'WEBHOOK',
        }),
        401,
        'unauthenticated',
      );
      expect(await configRows(fixture.tenant.id)).toHaveLength(0);
    });
  });

  it('disables idempotently; re-enabling gives a new enabledAt', async () => {
    const { token } = await stack.createTenant();
    const body = { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' };
    const enabled = await enable(body, token);
    const disabled = await sut.api.put('/api/v1/notification-config/disable', body, { token });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ ...body, enabled: false, enabledAt: null });
    const again = await sut.api.put('/api/v1/notification-config/disable', body, { token });
    expect(again.body).toEqual(disabled.body);
    const reenabled = await enable(body, token);
    expect(reenabled.body.enabled).toBe(true);
    expect(new Date(reenabled.body.enabledAt).getTime()).toBeGreaterThanOrEqual(
      new Date(enabled.body.enabledAt).getTime(),
    );
    expect(reenabled.body.enabledAt).not.toBe(enabled.body.enabledAt);
  });

  it('lists the notification types with their data schemas', async () => {
    const r = await sut.api.get('/api/v1/notification-types', { token });
    expect(r.status).toBe(200);
    const codes = r.body.items.map((t: { code: string }) => t.code);
    expect(codes).toEqual(expect.arrayContaining(['PERSON_UPDATED', 'CARD_SETTINGS_CHANGED']));
    const person = r.body.items.find((t: { code: string }) => t.code === 'PERSON_UPDATED');
    expect(person.channels).toEqual(['WEBHOOK']);
    expect(person.dataSchema.$schema).toContain('2020-12');
    expect(person.dataSchema.$defs.PersonUpdatedData.properties.personId).toEqual({ type: 'string' });
  });

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
      const [row] = await (
        await stack.db()
      ).query(`SELECT secret_sealed FROM notifications.webhook_endpoints WHERE tenant_id = $1`, [tenant.id]);
      expect(row.secret_sealed).toMatch(/^v1\./);
      expect(row.secret_sealed).not.toContain(r.body.secret.slice(6));
      const got = await sut.api.get(`/api/v1/webhook-endpoints/${r.body.id}`, { token });
      expect(got.body).toEqual(Object.fromEntries(Object.entries(r.body).filter(([k]) => k !== 'secret')));
      expect((await sut.api.get('/api/v1/webhook-endpoints', { token })).body.items).toHaveLength(1);
    });

    it("hides another tenant's endpoint (404) and answers 400 for a malformed id", async () => {
      const a = await stack.createTenant();
      const b = await stack.createTenant();
      const created = await sut.api.post(
        '/api/v1/webhook-endpoints',
        { url: 'http://127.0.0.1:9/hook' },
        { token: a.token },
      );
      problemOf(
        await sut.api.get(`/api/v1/webhook-endpoints/${created.body.id}`, { token: b.token }),
        404,
        'webhook_endpoint_not_found',
      );
      problemOf(
        await sut.api.delete(`/api/v1/webhook-endpoints/${created.body.id}`, { token: b.token }),
        404,
        'webhook_endpoint_not_found',
      );
      problemOf(
        await sut.api.post(
          `/api/v1/webhook-endpoints/${created.body.id}/rotate-secret`,
          {},
          { token: b.token },
        ),
        404,
        'webhook_endpoint_not_found',
      );
      problemOf(
        await sut.api.get(`/api/v1/webhook-endpoints/not-a-uuid`, { token: a.token }),
        400,
        'validation_failed',
      );
      expect(
        (await sut.api.get(`/api/v1/webhook-endpoints/${created.body.id}`, { token: a.token })).body.status,
      ).toBe('ACTIVE');
    });

    it('disables, enables and deletes; a deleted endpoint is gone for the API', async () => {
      const { token } = await stack.createTenant();
      const { body: endpoint } = await sut.api.post(
        '/api/v1/webhook-endpoints',
        { url: 'http://127.0.0.1:9/hook' },
        { token },
      );
      const disabled = await sut.api.post(`/api/v1/webhook-endpoints/${endpoint.id}/disable`, {}, { token });
      expect(disabled.body).toMatchObject({ status: 'DISABLED', disabledReason: 'disabled by the tenant' });
      expect(
        (await sut.api.post(`/api/v1/webhook-endpoints/${endpoint.id}/disable`, {}, { token })).body,
      ).toEqual(disabled.body);
      const enabled = await sut.api.post(`/api/v1/webhook-endpoints/${endpoint.id}/enable`, {}, { token });
      expect(enabled.body).toMatchObject({ status: 'ACTIVE', disabledReason: null });
      expect((await sut.api.delete(`/api/v1/webhook-endpoints/${endpoint.id}`, { token })).status).toBe(204);
      problemOf(
        await sut.api.get(`/api/v1/webhook-endpoints/${endpoint.id}`, { token }),
        404,
        'webhook_endpoint_not_found',
      );
      expect((await sut.api.get('/api/v1/webhook-endpoints', { token })).body.items).toEqual([]);
    });

    it('rotates the secret, keeping the old one for the grace period', async () => {
      const { token } = await stack.createTenant();
      const { body: endpoint } = await sut.api.post(
        '/api/v1/webhook-endpoints',
        { url: 'http://127.0.0.1:9/hook' },
        { token },
      );
      const r = await sut.api.post(`/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {}, { token });
      expect(r.status).toBe(200);
      expect(r.body.secret).toMatch(/^whsec_/);
      expect(r.body.secret).not.toBe(endpoint.secret);
      expect(new Date(r.body.previousSecretExpiresAt).getTime()).toBeGreaterThan(
        Date.now() + 23 * 3600 * 1000,
      );
    });

    it('validates the body and refuses non-http schemes, and changes nothing', async () => {
      const { token, tenant } = await stack.createTenant();
      problemOf(
        await sut.api.post(
          '/api/v1/webhook-endpoints',
          { url: 'http://127.0.0.1:9/x', notificationTypeCodes: ['NOPE'] },
          { token },
        ),
        400,
        'validation_failed',
      );
      problemOf(await sut.api.post('/api/v1/webhook-endpoints', {}, { token }), 400, 'validation_failed');
      const ftp = await sut.api.post('/api/v1/webhook-endpoints', { url: 'ftp://example.com/x' }, { token });
      problemOf(ftp, 422, 'webhook_url_refused');
      expect(ftp.body.errors[0]).toMatchObject({ field: 'url', code: 'scheme_not_allowed' });
      problemOf(
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
      problemOf(long, 400, 'validation_failed');
      expect(long.body.errors[0]).toMatchObject({ field: 'url' });
      // PostgreSQL cannot store NUL in text.
      const nul = await sut.api.post(
        '/api/v1/webhook-endpoints',
        { url: 'http://127.0.0.1:9/x', description: 'a\u0000b' },
        { token },
      );
      problemOf(nul, 400, 'validation_failed');
      expect(nul.body.errors[0]).toMatchObject({ field: 'description' });
      const rows = await (
        await stack.db()
      ).query(`SELECT 1 FROM notifications.webhook_endpoints WHERE tenant_id = $1`, [tenant.id]);
      expect(rows).toHaveLength(0);
    });
  });

  describe('deliveries', () => {
    it('answers 404 for an unknown delivery, 400 for a bad cursor or filter, and an empty first page', async () => {
      problemOf(
        await sut.api.get(`/api/v1/webhook-deliveries/${randomUUID()}`, { token }),
        404,
        'webhook_delivery_not_found',
      );
      problemOf(
        await sut.api.post(`/api/v1/webhook-deliveries/${randomUUID()}/retry`, {}, { token }),
        404,
        'webhook_delivery_not_found',
      );
      problemOf(await sut.api.get('/api/v1/webhook-deliveries?cursor=abc', { token }), 400, 'invalid_cursor');
      problemOf(
        await sut.api.get('/api/v1/webhook-deliveries?status=LOST', { token }),
        400,
        'validation_failed',
      );
      problemOf(
        await sut.api.get('/api/v1/webhook-deliveries?limit=1000', { token }),
        400,
        'validation_failed',
      );
      const page = await sut.api.get('/api/v1/webhook-deliveries', { token });
      expect(page.body).toEqual({ items: [], nextCursor: null });
    });
  });

  it('documents every operation in OpenAPI', async () => {
    const doc = (await sut.api.get('/docs-json')).body;
    expect(doc.paths['/api/v1/notification-config/enable'].put.requestBody).toBeDefined();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/notification-types',
        '/api/v1/webhook-endpoints',
        '/api/v1/webhook-deliveries/{deliveryId}/retry',
      ]),
    );
  });
});

describe('notification API without private networks (SSRF guard at registration)', () => {
  let stack: TestStack;
  let sut: RunningApp;
  beforeAll(async () => {
    stack = await TestStack.create({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
    sut = await stack.startApp(NotificationApiApp);
  });
  afterAll(() => stack.close());

  it.each([
    ['http://127.0.0.1:8080/hook', 'private_address'],
    ['http://localhost/hook', 'private_address'],
    ['http://10.0.0.8/hook', 'private_address'],
    ['http://192.168.0.1/hook', 'private_address'],
    ['http://[::1]/hook', 'private_address'],
    ['http://[::ffff:127.0.0.1]/hook', 'private_address'],
    ['http://169.254.169.254/latest/meta-data', 'metadata_address'],
    ['http://0.0.0.0/hook', 'forbidden_address'],
    ['https://user:pw@93.184.216.34/hook', 'credentials_in_url'],
  ])('refuses %s (%s) and stores nothing', async (url, reason) => {
    const { token, tenant } = await stack.createTenant();
    const r = await sut.api.post('/api/v1/webhook-endpoints', { url }, { token });
    problemOf(r, 422, 'webhook_url_refused');
    expect(r.body.errors[0]).toMatchObject({ field: 'url', code: reason });
    const rows = await (
      await stack.db()
    ).query(`SELECT 1 FROM notifications.webhook_endpoints WHERE tenant_id = $1`, [tenant.id]);
    expect(rows).toHaveLength(0);
  });

  it('accepts a public address', async () => {
    const { token } = await stack.createTenant();
    expect(
      (await sut.api.post('/api/v1/webhook-endpoints', { url: 'https://93.184.216.34/hook' }, { token }))
        .status,
    ).toBe(201);
  });
});
