import { OutboxEventEntity } from '@fincore/events';
import { ALL_SCOPES } from '@fincore/platform';
import { createAccount } from './support/builders/accounts';
import { createCard } from './support/builders/cards';
import {
  atmAbroad,
  provisionFeeWorld,
  standardTariffWithFlatAtmAbroadFee,
} from './support/builders/fee-world';
import { createPerson } from './support/builders/persons';
import { createPriceList } from './support/builders/pricing';
import {
  AppName,
  Replica,
  ReplicaSet,
  revokeTokenWithCli,
  spawnReplicaSet,
  succeededAttempts,
} from './support/builders/replicas';
import { webhookTenant } from './support/builders/webhooks';
import { countRows } from './support/db';
import { ApiResponse, eventually, expectStatus } from './support/http';
import { outboxEvents } from './support/outbox';
import { TestStack } from './support/stack';
import { verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

/** Requests per token per window, small enough to reach in a test. */
const LIMIT = 40;

/**
 * Two processes of every app from the build (`npm run build` first) on one database and one Redis,
 * as a deployment behind load balancers: what one replica changes, every other one answers by.
 */
describe('two replicas of every app on one database and one Redis', () => {
  let stack: TestStack;
  let set: ReplicaSet;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await TestStack.create();
    await stack.db([OutboxEventEntity]);
    receiver = await WebhookReceiver.start();
    set = await spawnReplicaSet(stack, {
      RATE_LIMIT_MAX: String(LIMIT),
      // Long windows and cache lifetimes: only the shared counter and the Redis messages can explain what follows.
      RATE_LIMIT_WINDOW_SECONDS: '600',
      TOKEN_CACHE_SECONDS: '600',
    });
  }, 120_000);
  afterAll(async () => {
    await receiver.stop();
    await stack.close();
  });

  const apis = () => [...set.credentials, ...set.card, ...set.notification];

  /** Per API, an authenticated request answered without a side effect, and its status for a good token. */
  const PROBES: Record<Exclude<AppName, 'notifier'>, { path: string; accepted: number }> = {
    'credentials-api': { path: '/api/v1/persons/nobody', accepted: 404 },
    'card-api': { path: '/api/v1/usage-groups', accepted: 200 },
    'notification-api': { path: '/api/v1/webhook-endpoints', accepted: 200 },
  };
  const probeOf = (replica: Replica) => PROBES[replica.app as keyof typeof PROBES];
  const probe = (replica: Replica, token: string): Promise<ApiResponse> =>
    replica.api.get(probeOf(replica).path, { token });

  it('refuses a revoked token at once on every replica of every API, though each had it cached', async () => {
    const f = await stack.createTenant();
    for (const replica of apis())
      expectStatus(
        await probe(replica, f.token),
        probeOf(replica).accepted,
        `${replica.name} before revoking`,
      );

    const revoked = revokeTokenWithCli(stack, f.tokenEntity.id);
    expect([revoked.code, revoked.output]).toEqual([0, expect.stringContaining('"revoked":true')]);

    // The cache would keep the token for ten minutes: a refusal within seconds is the revocation message.
    for (const replica of apis())
      await eventually(async () => (await probe(replica, f.token)).status === 401, {
        timeoutMs: 5_000,
        intervalMs: 100,
        what: `${replica.name} to refuse the revoked token`,
      });
  });

  it('quotes on card-api B by what was changed via card-api A: tariff, account and card price lists, new cards', async () => {
    const [a, b] = set.card;
    const f = await stack.createTenant();
    // Set-up and changes on one token, quotes on another: each stays well within its rate limit.
    const quoter = await f.tokenWith([...ALL_SCOPES]);
    const world = await provisionFeeWorld(a.api, f.token, 'R');
    const quoteOnB = (body: Record<string, unknown>) =>
      b.api.post('/api/v1/transactions/calculate-fees', body, { token: quoter });
    const atmFee = (r: ApiResponse) =>
      r.body.fees.find((fee: { feeTypeCode: string }) => fee.feeTypeCode === 'ATM_WITHDRAWAL_FEE')?.amount;
    /** Quotes on B until the answer shows the change; pricing stays cached for minutes otherwise. */
    const quoteOnBUntil = (body: Record<string, unknown>, shows: (r: ApiResponse) => boolean, what: string) =>
      eventually(
        async () => {
          const r = await quoteOnB(body);
          return r.status === 200 && shows(r) && r;
        },
        { timeoutMs: 5_000, intervalMs: 100, what: `card-api B to quote ${what}` },
      );

    const request = atmAbroad(world);
    // Warms B's cache of the tenant's pricing.
    const warm = expectStatus(await quoteOnB(request), 200, 'first quote on B');
    expect(warm.body.priceList.code).toBe('STANDARD-2026');
    expect(atmFee(warm)).toBe(5);

    expectStatus(
      await a.api.put(`/api/v1/price-lists/${world.standardId}`, standardTariffWithFlatAtmAbroadFee('7.00'), {
        token: f.token,
      }),
      200,
      'new tariff via A',
    );
    await quoteOnBUntil(request, (r) => atmFee(r) === 7, 'the new tariff');

    // More specific lists for the same June day: the account's, then the card's, take over on B.
    for (const [owner, fee] of [
      [{ level: 'ACCOUNT', accountId: world.accounts.current }, 9],
      [{ level: 'CARD', cardId: world.cards.debit }, 11],
    ] as const) {
      const list = await createPriceList(a.api, f.token, {
        ...owner,
        validFrom: '2026-06-01',
        rules: standardTariffWithFlatAtmAbroadFee(fee.toFixed(2)).rules,
      });
      await quoteOnBUntil(
        request,
        (r) => r.body.priceList.code === list.code && atmFee(r) === fee,
        `the ${owner.level.toLowerCase()} list`,
      );
    }

    // An account and a card opened via A are known to B's very next quote: they are read, not cached.
    const account = await createAccount(a.api, f.token, { type: 'CURRENT' });
    const card = await createCard(a.api, f.token, { accountId: account.accountId, usageGroup: 'STD' });
    const onNewCard = expectStatus(
      await quoteOnB({ ...request, accountId: account.accountId, cardId: card.cardId }),
      200,
      'quote on B with the card opened via A',
    );
    expect([onNewCard.body.priceList.code, atmFee(onNewCard)]).toEqual(['STANDARD-2026', 7]);
  });

  it("counts a token's requests on both card-api replicas against one limit", async () => {
    const f = await stack.createTenant();
    const statuses: number[] = [];
    const remaining: string[] = [];
    const refusals: unknown[] = [];
    // Alternating A, B, A, B…: each replica sees barely half the limit.
    for (let i = 0; i < LIMIT + 2; i++) {
      const r = await set.card[i % 2].api.get('/api/v1/usage-groups', { token: f.token });
      statuses.push(r.status);
      remaining.push(r.headers.get('ratelimit-remaining') ?? '');
      if (r.status === 429) refusals.push([r.body.code, r.headers.get('retry-after')]);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429]);
    expect(refusals).toEqual(Array(2).fill(['rate_limited', expect.stringMatching(/^[1-9]\d*$/)]));
    expect(remaining.slice(0, LIMIT)).toEqual(Array.from({ length: LIMIT }, (_, i) => String(LIMIT - 1 - i)));
    // The count is the token's, whichever API it calls.
    expect((await probe(set.notification[1], f.token)).status).toBe(429);
  });

  it('delivers the events of changes via both credentials replicas once each, split between both notifiers', async () => {
    const [notifierA, notifierB] = set.notifier;
    const before = await Promise.all([succeededAttempts(notifierA.url), succeededAttempts(notifierB.url)]);
    // A short delay per answer keeps one notifier from draining the queue before the other polls.
    receiver.setDefault({ status: 200, body: 'ok', delayMs: 50 });
    const f = await webhookTenant(stack, set.notification[0].api, receiver.url);
    const tokens = [f.token, await f.tokenWith([...ALL_SCOPES])];
    const PEOPLE = 12;
    for (let i = 0; i < PEOPLE; i++) {
      const [replica, token] = [set.credentials[i % 2], tokens[i % 2]];
      const person = await createPerson(replica.api, token, {}, 'replica');
      // Each person changed twice, once via either replica.
      for (const [n, other] of [replica, set.credentials[(i + 1) % 2]].entries())
        expectStatus(
          await other.api.patch(`/api/v1/persons/${person.personId}`, { firstName: `Name ${n}` }, { token }),
          200,
          `change ${person.personId} via ${other.name}`,
        );
    }

    const db = await stack.db();
    const events = await outboxEvents(db, { tenantCode: f.tenant.code, type: 'PERSON_UPDATED' });
    expect(events).toHaveLength(2 * PEOPLE);
    const path = `/${f.tenant.code}`;
    const received = () => receiver.received.filter((w) => w.path === path);
    const distinctIds = () => new Set(received().map((w) => String(w.headers['webhook-id'])));
    await eventually(() => distinctIds().size === events.length, {
      timeoutMs: 30_000,
      what: `all ${events.length} webhooks`,
    });
    expect(distinctIds()).toEqual(new Set(events.map((e) => e.id)));
    for (const w of received()) verifyWebhook(w, f.endpoint.secret);

    const succeeded = async () =>
      countRows(db, 'notifications.webhook_deliveries', { tenant_id: f.tenant.id, status: 'SUCCEEDED' });
    await eventually(async () => (await succeeded()) === events.length, {
      what: `${events.length} deliveries recorded as succeeded`,
    });
    const perProcess = await eventually(
      async () => {
        const now = await Promise.all([succeededAttempts(notifierA.url), succeededAttempts(notifierB.url)]);
        const counts = now.map((n, i) => n - before[i]);
        return counts[0] + counts[1] === events.length && counts;
      },
      { what: `${events.length} successful attempts counted across both notifiers` },
    );
    expect(Math.min(...perProcess)).toBeGreaterThan(0);
    // Every answer was a success: a second request for one event would be a double delivery.
    expect(received()).toHaveLength(events.length);
    const [{ doubled }] = await db.query(
      `SELECT count(*)::int AS doubled FROM (
         SELECT delivery_id FROM notifications.webhook_delivery_attempts
          WHERE tenant_id = $1 AND outcome = 'SUCCEEDED' GROUP BY delivery_id HAVING count(*) > 1) d`,
      [f.tenant.id],
    );
    expect(doubled).toBe(0);
    receiver.setDefault({ status: 200, body: 'ok' });
  });
});
