import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { AppWorld, startAppWorld } from './support/app-world';
import { createWebhookEndpoint } from './support/builders/webhooks';
import { expectProblem } from './support/problems';

const hook = { url: 'http://127.0.0.1:9/hook' };

/** An endpoint's deliveries per hour, as the portal's chart reads them. */
describe('notification API: endpoint delivery statistics', () => {
  let world: AppWorld;
  beforeAll(async () => {
    world = await startAppWorld(NotificationApiApp);
  });
  afterAll(() => world.stack.close());

  it('counts the last 24 hours of deliveries per hour by outcome, zeros included', async () => {
    const endpoint = await createWebhookEndpoint(world.sut.api, world.acme.token, hook);
    const finished = (status: 'SUCCEEDED' | 'FAILED', hoursAgo: number) =>
      world.db.query(
        `INSERT INTO notifications.webhook_deliveries
           (id, tenant_id, endpoint_id, event_id, notification_type_code, event_occurred_at, status,
            attempt_count, cycle_attempts, created_at, updated_at)
         SELECT gen_random_uuid(), $1, $2, gen_random_uuid(), 'PERSON_UPDATED', at, $3, 1, 1, at, at
           FROM (SELECT now() - make_interval(hours => $4) AS at) t`,
        [world.acme.tenant.id, endpoint.id, status, hoursAgo],
      );
    await finished('SUCCEEDED', 0);
    await finished('FAILED', 0);
    await finished('SUCCEEDED', 5);
    await finished('SUCCEEDED', 30);

    const day = await world.sut.api.get(`/api/v1/webhook-endpoints/${endpoint.id}/stats`, {
      token: world.acme.token,
    });
    expect(day.status).toBe(200);
    expect(day.body).toMatchObject({ endpointId: endpoint.id, window: '24h' });
    expect(day.body.hours).toHaveLength(24);
    expect(day.body.total).toEqual({ succeeded: 2, failed: 1, pending: 0 });
    expect(day.body.hours[23]).toMatchObject({ succeeded: 1, failed: 1 });
    expect(day.body.hours[18]).toMatchObject({ succeeded: 1, failed: 0 });

    const week = await world.sut.api.get(`/api/v1/webhook-endpoints/${endpoint.id}/stats?window=7d`, {
      token: world.acme.token,
    });
    expect(week.body.hours).toHaveLength(168);
    expect(week.body.total.succeeded).toBe(3);
    expect(Date.parse(week.body.until) - Date.parse(week.body.from)).toBe(168 * 3_600_000);
  });

  it("answers 404 for another tenant's endpoint and 400 for an unknown window", async () => {
    const theirs = await createWebhookEndpoint(world.sut.api, world.other.token, hook);
    expectProblem(
      await world.sut.api.get(`/api/v1/webhook-endpoints/${theirs.id}/stats`, { token: world.acme.token }),
      404,
      'webhook_endpoint_not_found',
    );
    const r = await world.sut.api.get(`/api/v1/webhook-endpoints/${theirs.id}/stats?window=1y`, {
      token: world.other.token,
    });
    expectProblem(r, 400, 'validation_failed');
    expect(r.body.errors).toEqual([expect.objectContaining({ field: 'window' })]);
  });
});
