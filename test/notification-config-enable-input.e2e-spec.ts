import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { startAppWorld } from './support/app-world';
import { enableNotifications } from './support/builders/webhooks';
import { selectRows } from './support/db';
import { expectProblem } from './support/problems';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

/** Malformed and foreign requests to the enable operation: a problem answer, and no config row touched. */
describe('notification API: enable refuses bad input and changes nothing', () => {
  let stack: TestStack, sut: RunningApp, acme: TenantFixture, other: TenantFixture;
  beforeAll(async () => {
    ({ stack, sut, acme, other } = await startAppWorld(NotificationApiApp));
    // A config the refused requests could disturb: its row must stay exactly as it is.
    await enableNotifications(sut.api, acme.token, 'CARD_SETTINGS_CHANGED');
  });
  afterAll(() => stack.close());

  const configRows = async () =>
    selectRows(await stack.db(), 'notifications.notification_configs', { tenant_id: acme.tenant.id });
  const valid = { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' };

  const badBodies: Array<[string, unknown, string]> = [
    ['notificationTypeCode missing', { channelCode: 'WEBHOOK' }, 'notificationTypeCode'],
    ['channelCode missing', { notificationTypeCode: 'PERSON_UPDATED' }, 'channelCode'],
    ['notificationTypeCode a number', { ...valid, notificationTypeCode: 7 }, 'notificationTypeCode'],
    ['notificationTypeCode null', { ...valid, notificationTypeCode: null }, 'notificationTypeCode'],
    ['notificationTypeCode empty', { ...valid, notificationTypeCode: '' }, 'notificationTypeCode'],
    [
      'notificationTypeCode lowercase',
      { ...valid, notificationTypeCode: 'person_updated' },
      'notificationTypeCode',
    ],
    [
      'notificationTypeCode an array',
      { ...valid, notificationTypeCode: ['PERSON_UPDATED'] },
      'notificationTypeCode',
    ],
    ['channelCode a boolean', { ...valid, channelCode: true }, 'channelCode'],
    ['channelCode an object', { ...valid, channelCode: { code: 'WEBHOOK' } }, 'channelCode'],
    ['channelCode lowercase', { ...valid, channelCode: 'webhook' }, 'channelCode'],
  ];

  it.each(badBodies)('answers 400 validation_failed naming the field: %s', async (_, body, field) => {
    const before = await configRows();
    const r = await sut.api.put('/api/v1/notification-config/enable', body, { token: acme.token });
    expectProblem(r, 400, 'validation_failed');
    expect(r.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(await configRows()).toEqual(before);
  });

  it.each([
    ['an empty object', {}],
    ['JSON null', 'null'],
    ['a JSON array', [valid]],
    ['a JSON string', '"PERSON_UPDATED"'],
  ])('answers 400 validation_failed for %s as the body', async (_, body) => {
    const before = await configRows();
    const r = await sut.api.request('PUT', '/api/v1/notification-config/enable', {
      token: acme.token,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(r, 400, 'validation_failed');
    expect(await configRows()).toEqual(before);
  });

  it('answers 400 for no body at all and for malformed JSON', async () => {
    const before = await configRows();
    const none = await sut.api.put('/api/v1/notification-config/enable', undefined, { token: acme.token });
    expectProblem(none, 400, 'validation_failed');
    const malformed = await sut.api.request('PUT', '/api/v1/notification-config/enable', {
      token: acme.token,
      body: '{"notificationTypeCode": "PERSON_UPDATED",',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(malformed, 400, 'malformed_json');
    expect(await configRows()).toEqual(before);
  });

  it("answers 403 tenant_mismatch for another tenant's x-tenant-code, and enables with the token's own", async () => {
    const before = await configRows();
    const mismatch = await sut.api.put('/api/v1/notification-config/enable', valid, {
      token: acme.token,
      headers: { 'x-tenant-code': other.tenant.code },
    });
    expectProblem(mismatch, 403, 'tenant_mismatch');
    expect(await configRows()).toEqual(before);
    expect(
      await selectRows(await stack.db(), 'notifications.notification_configs', {
        tenant_id: other.tenant.id,
      }),
    ).toEqual([]);

    const own = await sut.api.put('/api/v1/notification-config/enable', valid, {
      token: acme.token,
      headers: { 'x-tenant-code': acme.tenant.code },
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ ...valid, enabled: true });
    expect(await configRows()).toHaveLength(before.length + 1);
  });
});
