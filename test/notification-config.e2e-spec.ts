import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { startAppWorld } from './support/app-world';
import { countRows, selectRows } from './support/db';
import { expectStatus } from './support/http';
import { expectOutboxEvents } from './support/outbox';
import { expectProblem } from './support/problems';
import { RunningApp, TestStack } from './support/stack';

describe('notification API: notification configuration', () => {
  let stack: TestStack, sut: RunningApp, token: string;
  beforeAll(async () => ({ stack, sut, token } = await startAppWorld(NotificationApiApp)));
  afterAll(() => stack.close());

  const enable = (body: unknown, t = token, headers: Record<string, string> = {}) =>
    sut.api.put('/api/v1/notification-config/enable', body, { token: t, headers });
  const countConfigs = async (tenantId: string) =>
    countRows(await stack.db(), 'notifications.notification_configs', { tenant_id: tenantId });

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
      expect(await countConfigs(tenant.id)).toBe(1);
      const list = await sut.api.get('/api/v1/notification-config', { token });
      expect(list.body.items).toEqual([first.body]);
    });

    it('emits no event', async () => {
      const { token, tenant } = await stack.createTenant();
      const r = await enable(
        { notificationTypeCode: 'CARD_SETTINGS_CHANGED', channelCode: 'WEBHOOK' },
        token,
      );
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ notificationTypeCode: 'CARD_SETTINGS_CHANGED', enabled: true });
      expect(await countConfigs(tenant.id)).toBe(1);
      await expectOutboxEvents(await stack.db(), { tenantCode: tenant.code }, 0);
    });

    it('answers 400 naming the allowed values for an unknown type or channel, and changes nothing', async () => {
      const { token, tenant } = await stack.createTenant();
      const badType = await enable({ notificationTypeCode: 'PERSON_DELETED', channelCode: 'WEBHOOK' }, token);
      expectProblem(badType, 400, 'validation_failed');
      expect(badType.body.errors).toEqual([
        expect.objectContaining({
          field: 'notificationTypeCode',
          message: expect.stringContaining('PERSON_UPDATED, PERSON_ERASED, CARD_SETTINGS_CHANGED'),
        }),
      ]);
      const badChannel = await enable(
        { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'PIGEON' },
        token,
      );
      expectProblem(badChannel, 400, 'validation_failed');
      expect(badChannel.body.errors[0]).toMatchObject({
        field: 'channelCode',
        message: expect.stringContaining('WEBHOOK'),
      });
      expectProblem(
        await enable({ notificationTypeCode: 'PERSON_UPDATED' }, token),
        400,
        'validation_failed',
      );
      expectProblem(
        await enable({ notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK', extra: 1 }, token),
        400,
        'validation_failed',
      );
      expect(await countConfigs(tenant.id)).toBe(0);
    });

    it('refuses a known channel that is not implemented with 422, localised, and changes nothing', async () => {
      const { token, tenant } = await stack.createTenant();
      const r = await enable({ notificationTypeCode: 'PERSON_UPDATED', channelCode: 'EMAIL' }, token, {
        'accept-language': 'de',
      });
      expectProblem(r, 422, 'notification_channel_not_implemented');
      expect(r.body.detail).toContain('EMAIL');
      expect(r.body.title).toBe('Kanal nicht implementiert');
      expect(await countConfigs(tenant.id)).toBe(0);
    });

    it('needs a token with notifications:write', async () => {
      const fixture = await stack.createTenant();
      const readOnly = await fixture.tokenWith(['notifications:read']);
      expectProblem(
        await enable({ notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' }, readOnly),
        403,
        'insufficient_scope',
      );
      expectProblem(
        await sut.api.put('/api/v1/notification-config/enable', {
          notificationTypeCode: 'PERSON_UPDATED',
          channelCode: 'WEBHOOK',
        }),
        401,
        'unauthenticated',
      );
      expect(await countConfigs(fixture.tenant.id)).toBe(0);
    });
  });

  describe('concurrent switches of one combination', () => {
    const body = { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' };
    const configRows = async (tenantId: string) =>
      selectRows(await stack.db(), 'notifications.notification_configs', { tenant_id: tenantId });

    it('parallel enables settle on one row with one enabledAt, and every answer shows it', async () => {
      const { token, tenant } = await stack.createTenant();
      const answers = await Promise.all(Array.from({ length: 8 }, () => enable(body, token)));
      expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
      const [row, ...more] = await configRows(tenant.id);
      expect(more).toEqual([]);
      expect(row).toMatchObject({ enabled: true, disabled_at: null });
      for (const r of answers) {
        expect(r.body).toEqual(answers[0].body);
        expect(new Date(r.body.enabledAt)).toEqual(row.enabled_at);
      }
    });

    it.each([
      ['not configured yet', false],
      ['enabled before', true],
    ])(
      'an enable racing a disable (%s) leaves one consistent row: the answer of whichever ran last',
      async (_, enabledBefore) => {
        const { token, tenant } = await stack.createTenant();
        if (enabledBefore) expectStatus(await enable(body, token), 200, 'enable before the race');
        for (let round = 0; round < 4; round++) {
          const [enabled, disabled] = await Promise.all([
            enable(body, token),
            sut.api.put('/api/v1/notification-config/disable', body, { token }),
          ]);
          expect([enabled.status, disabled.status]).toEqual([200, 200]);
          const rows = await configRows(tenant.id);
          expect(rows).toHaveLength(1);
          const [row] = rows;
          // The side that ran last stamped its time on the row.
          const stamped = row.enabled ? 'enabled_at' : 'disabled_at';
          expect(row[stamped]).toEqual(expect.any(Date));
          const listed = (await sut.api.get('/api/v1/notification-config', { token })).body.items;
          expect(listed).toHaveLength(1);
          expect([enabled.body, disabled.body]).toContainEqual(listed[0]);
          expect(listed[0].enabled).toBe(row.enabled);
        }
      },
    );
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
    expect(person.thinDataSchema).toMatchObject({
      properties: { personId: { type: 'string' }, changedFields: { type: 'array' } },
      additionalProperties: false,
    });
    expect(person.example).toMatchObject({ personId: expect.any(String), changedFields: expect.any(Array) });
    const erased = r.body.items.find((t: { code: string }) => t.code === 'PERSON_ERASED');
    expect(Object.keys(erased.dataSchema.$defs.PersonErasedData.properties).sort()).toEqual([
      'erasedAt',
      'personId',
    ]);
    expect(Object.keys(erased.example).sort()).toEqual(['erasedAt', 'personId']);
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
