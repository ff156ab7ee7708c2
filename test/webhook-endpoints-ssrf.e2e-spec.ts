import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { startAppWorld } from './support/app-world';
import { countRows } from './support/db';
import { expectProblem } from './support/problems';
import { RunningApp, TestStack } from './support/stack';

describe('notification API without private networks (SSRF guard at registration)', () => {
  let stack: TestStack, sut: RunningApp;
  beforeAll(async () => {
    ({ stack, sut } = await startAppWorld(NotificationApiApp, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' }));
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
    expectProblem(r, 422, 'webhook_url_refused');
    expect(r.body.errors[0]).toMatchObject({ field: 'url', code: reason });
    expect(
      await countRows(await stack.db(), 'notifications.webhook_endpoints', { tenant_id: tenant.id }),
    ).toBe(0);
  });

  it('accepts a public address', async () => {
    const { token } = await stack.createTenant();
    expect(
      (await sut.api.post('/api/v1/webhook-endpoints', { url: 'https://93.184.216.34/hook' }, { token }))
        .status,
    ).toBe(201);
  });
});
