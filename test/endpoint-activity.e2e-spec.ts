import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { AppWorld, startAppWorld } from './support/app-world';
import { createWebhookEndpoint } from './support/builders/webhooks';
import { expectProblem } from './support/problems';

const hook = { url: 'http://127.0.0.1:9/hook' };
type Outcome = 'SUCCEEDED' | 'FAILED' | 'PENDING';

/** An endpoint's deliveries per hour, as the portal's chart reads them. */
describe('notification API: endpoint delivery statistics', () => {
  let world: AppWorld;
  beforeAll(async () => {
    world = await startAppWorld(NotificationApiApp);
  });
  afterAll(() => world.stack.close());

  /** A delivery created `hoursAgo`, with one attempt per duration given (ms). */
  const delivered = (
    tenantId: string,
    endpointId: string,
    status: Outcome,
    hoursAgo: number,
    durations: number[] = [],
  ) =>
    world.db.query(
      `WITH d AS (
         INSERT INTO notifications.webhook_deliveries
           (id, tenant_id, endpoint_id, event_id, notification_type_code, event_occurred_at, status,
            attempt_count, cycle_attempts, created_at, updated_at)
         SELECT gen_random_uuid(), $1, $2, gen_random_uuid(), 'PERSON_UPDATED', at, $3, 1, 1, at, at
           FROM (SELECT now() - make_interval(hours => $4) AS at) t
         RETURNING id, tenant_id, created_at)
       INSERT INTO notifications.webhook_delivery_attempts
         (id, delivery_id, tenant_id, attempt_number, started_at, duration_ms, outcome)
       SELECT gen_random_uuid(), d.id, d.tenant_id, n, d.created_at, ms, 'FAILED'
         FROM d, unnest($5::int[]) WITH ORDINALITY AS a(ms, n)`,
      [tenantId, endpointId, status, hoursAgo, durations],
    );

  it('counts the last 24 hours of deliveries per hour by outcome, zeros included', async () => {
    const endpoint = await createWebhookEndpoint(world.sut.api, world.acme.token, hook);
    const finished = (status: Outcome, hoursAgo: number) =>
      delivered(world.acme.tenant.id, endpoint.id, status, hoursAgo);
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

  it("gives every endpoint's last 24 hours by outcome with the p95 attempt duration, zeros without deliveries", async () => {
    const busy = await createWebhookEndpoint(world.sut.api, world.acme.token, hook);
    const quiet = await createWebhookEndpoint(world.sut.api, world.acme.token, hook);
    const theirs = await createWebhookEndpoint(world.sut.api, world.other.token, hook);
    const acme = (status: Outcome, hoursAgo: number, durations: number[] = []) =>
      delivered(world.acme.tenant.id, busy.id, status, hoursAgo, durations);
    // 20 attempts of 10, 20 … 200 ms: the 95th percentile is the 19th, 190 ms.
    const ms = Array.from({ length: 20 }, (_, i) => (i + 1) * 10);
    await acme('SUCCEEDED', 1, ms.slice(0, 8));
    await acme('SUCCEEDED', 2, ms.slice(8, 12));
    await acme('FAILED', 3, ms.slice(12));
    await acme('PENDING', 0);
    // Older than the window, and another tenant's: neither counts.
    await acme('FAILED', 30, [60_000]);
    await delivered(world.other.tenant.id, theirs.id, 'FAILED', 1, [60_000]);

    const r = await world.sut.api.get('/api/v1/webhook-endpoints/health', { token: world.acme.token });

    expect(r.status).toBe(200);
    expect(Date.parse(r.body.until) - Date.parse(r.body.from)).toBe(24 * 3_600_000);
    const mine = r.body.items.filter((i: { endpointId: string }) =>
      [busy.id, quiet.id].includes(i.endpointId),
    );
    expect(mine).toEqual([
      { endpointId: busy.id, deliveries: { succeeded: 2, failed: 1, pending: 1 }, p95DurationMs: 190 },
      { endpointId: quiet.id, deliveries: { succeeded: 0, failed: 0, pending: 0 }, p95DurationMs: null },
    ]);
    expect(r.body.items.map((i: { endpointId: string }) => i.endpointId)).not.toContain(theirs.id);
    const other = await world.sut.api.get('/api/v1/webhook-endpoints/health', { token: world.other.token });
    expect(other.body.items).toContainEqual({
      endpointId: theirs.id,
      deliveries: { succeeded: 0, failed: 1, pending: 0 },
      p95DurationMs: 60_000,
    });
  });
});
