import { webhookEnvelope } from '@fincore/events';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { AppWorld, startAppWorld } from './support/app-world';
import { ApiResponse, eventually, expectStatus } from './support/http';
import { untilReadsWait } from './support/event-stream';
import { commitPersonUpdated, outboxEvents } from './support/outbox';
import { expectProblem } from './support/problems';

const MAX_WAITERS = 2;

describe('notification API: GET /api/v1/events', () => {
  let world: AppWorld;
  beforeAll(async () => {
    world = await startAppWorld(NotificationApiApp, { EVENT_STREAM_MAX_WAITERS: String(MAX_WAITERS) });
  });
  afterAll(() => world.stack.close());

  const read = (token: string, query: Record<string, string | number> = {}) =>
    world.sut.api.get(
      `/api/v1/events?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
      {
        token,
      },
    );
  /** A new tenant subscribed to PERSON_UPDATED over WEBHOOK. */
  const subscribedTenant = async () => {
    const { tenant, token } = await world.stack.createTenant();
    const body = { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' };
    expectStatus(
      await world.sut.api.put('/api/v1/notification-config/enable', body, { token }),
      200,
      'enable',
    );
    return { code: tenant.code, token };
  };
  /** Pages from the start until `count` events came, at `limit` a page. */
  const readAll = (token: string, count: number, limit: number) => {
    const items: any[] = [];
    let after: string | null = null;
    return eventually(
      async () => {
        const page: ApiResponse = await read(token, { limit, ...(after ? { after } : {}) });
        expect(page.status).toBe(200);
        items.push(...page.body.items);
        after = page.body.nextCursor ?? after;
        return items.length >= count && items;
      },
      { what: `${count} events`, intervalMs: 20 },
    );
  };

  it('answers every event of concurrent commits once, in commit order, as its webhook carries it', async () => {
    const tenant = await subscribedTenant();
    const persons = ['p1', 'p2', 'p3'];
    const committed = (
      await Promise.all(
        persons.flatMap((p) => [1, 2, 3, 4].map(() => commitPersonUpdated(world.db, tenant.code, p))),
      )
    ).map((e) => e.id);
    const items = await readAll(tenant.token, committed.length, 5);
    expect(items.map((i) => i.event.id).sort()).toEqual([...committed].sort());
    const [row] = await outboxEvents(world.db, { id: items[0].event.id });
    expect(items[0].event).toEqual(webhookEnvelope(row, null));
    const [again] = (await readAll(tenant.token, committed.length, 100)).map((i) => i.event.id);
    expect(again).toEqual(items[0].event.id);
  });

  it('answers only the tenant’s own events of the types it enabled for webhooks', async () => {
    const tenant = await subscribedTenant();
    const unsubscribed = await world.stack.createTenant();
    const mine = await commitPersonUpdated(world.db, tenant.code);
    await commitPersonUpdated(world.db, unsubscribed.tenant.code);
    const [item] = await readAll(tenant.token, 1, 10);
    expect(item.event.id).toBe(mine.id);
    const otherTypes = await read(tenant.token, { types: 'CARD_SETTINGS_CHANGED' });
    expect(otherTypes.body.items).toEqual([]);
    expect((await read(unsubscribed.token)).body.items).toEqual([]);
  });

  it('refuses a malformed cursor with 400 and one older than retention with 410', async () => {
    const tenant = await subscribedTenant();
    expectProblem(await read(tenant.token, { after: 'not-a-cursor!' }), 400, 'invalid_cursor');
    const old = Buffer.from(`1.1.${Date.now() - 8 * 86_400_000}`).toString('base64url');
    expectProblem(await read(tenant.token, { after: old }), 410, 'event_cursor_expired');
  });

  it('starts at an instant with since, and refuses since beside after', async () => {
    const tenant = await subscribedTenant();
    await commitPersonUpdated(world.db, tenant.code);
    const [{ now }] = await world.db.query('SELECT clock_timestamp() AS now');
    const later = await commitPersonUpdated(world.db, tenant.code);
    // Committed events become readable once no older transaction of the cluster runs.
    const items = await eventually(
      async () => {
        const { body } = await read(tenant.token, { since: now.toISOString() });
        return body.items.length > 0 && body.items;
      },
      { what: 'the later event' },
    );
    expect(items.map((i: any) => i.event.id)).toEqual([later.id]);
    const [first] = await readAll(tenant.token, 1, 10);
    expectProblem(
      await read(tenant.token, { since: now.toISOString(), after: first.cursor }),
      400,
      'validation_failed',
    );
    expectProblem(await read(tenant.token, { since: 'yesterday' }), 400, 'validation_failed');
  });

  it('wakes a waiting read when an event commits, before the wait ends', async () => {
    const tenant = await subscribedTenant();
    const started = Date.now();
    const waiting = read(tenant.token, { waitSeconds: 20 });
    await new Promise((r) => setTimeout(r, 300));
    const event = await commitPersonUpdated(world.db, tenant.code);
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(answer.body.items.map((i: any) => i.event.id)).toEqual([event.id]);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it(`holds at most ${MAX_WAITERS} waiting reads, answering 503 with Retry-After beyond`, async () => {
    const tenant = await subscribedTenant();
    const holding = Array.from({ length: MAX_WAITERS }, () => read(tenant.token, { waitSeconds: 3 }));
    await new Promise((r) => setTimeout(r, 500));
    const refused = await read(tenant.token, { waitSeconds: 3 });
    expectProblem(refused, 503, 'event_stream_busy');
    expect(refused.headers.get('retry-after')).toBe('1');
    for (const r of await Promise.all(holding)) expect(r.status).toBe(200);
    expect((await read(tenant.token, { waitSeconds: 0 })).status).toBe(200);
  });

  it('answers a waiting read at once when the process shuts down, instead of holding the drain', async () => {
    const tenant = await subscribedTenant();
    const second = await world.stack.startApp(NotificationApiApp);
    const waiting = second.api.get('/api/v1/events?waitSeconds=30', { token: tenant.token });
    await untilReadsWait(second.url);
    const closing = Date.now();
    await second.close();
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(answer.body.items).toEqual([]);
    expect(Date.now() - closing).toBeLessThan(10_000);
  });
});
