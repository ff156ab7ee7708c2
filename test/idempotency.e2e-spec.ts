import type { DataSource } from 'typeorm';
import { keyDigest } from '@fincore/platform';
import { CardApiApp } from '../apps/card-api/src/app.definition';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { startAppWorld } from './support/app-world';
import { uniqueId } from './support/builders/ids';
import { createPerson, expectPersonUpdatedEvents, holdPersonRow } from './support/builders/persons';
import { setUpCardTenant, settingsBody } from './support/card-settings';
import { countRows, selectRows } from './support/db';
import { ApiResponse, expectStatus } from './support/http';
import { expectOutboxEvents } from './support/outbox';
import { expectProblem } from './support/problems';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

const INVALIDATE = '/api/v1/credentials/invalidate';

/** Idempotency-Key on the POSTs of every API: replays, refusals, races and tenants. */
describe('Idempotency-Key', () => {
  let stack: TestStack, db: DataSource, acme: TenantFixture, other: TenantFixture;
  let credentials: RunningApp, cards: RunningApp, notifications: RunningApp;
  beforeAll(async () => {
    ({ stack, sut: credentials, db, acme, other } = await startAppWorld(CredentialsApiApp));
    cards = await stack.startApp(CardApiApp);
    notifications = await stack.startApp(NotificationApiApp);
    await setUpCardTenant(cards.api, acme.token);
    await setUpCardTenant(cards.api, other.token);
  });
  afterAll(() => stack.close());

  const withKey = (key: string, tenant = acme) => ({
    token: tenant.token,
    headers: { 'idempotency-key': key, 'x-tenant-code': tenant.tenant.code },
  });
  /** The answer as the client sees it, without what belongs to the request that carried it. */
  const answerOf = (r: ApiResponse) => ({
    status: r.status,
    contentType: r.headers.get('content-type'),
    contentLanguage: r.headers.get('content-language'),
    body: r.body,
  });
  const aCard = () => ({
    cardId: uniqueId('CARD'),
    accountId: 'ACC-1',
    usageGroup: 'STANDARD',
    network: 'VISA',
    cardType: 'DEBIT',
  });
  const cardsOf = (tenant: TenantFixture, cardId: string) =>
    countRows(db, 'cards.cards', { tenant_id: tenant.tenant.id, card_id: cardId });
  const endpointsOf = (tenant: TenantFixture) =>
    countRows(db, 'notifications.webhook_endpoints', { tenant_id: tenant.tenant.id });

  it('replays an invalidation with its status and body, and emits its event once', async () => {
    const person = await createPerson(credentials.api, acme.token);
    const first = await credentials.api.post(INVALIDATE, person, withKey('invalidate-1'));
    const retry = await credentials.api.post(INVALIDATE, person, withKey('invalidate-1'));

    expectStatus(first, 200, 'invalidate');
    expect(answerOf(retry)).toEqual(answerOf(first));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    await expectPersonUpdatedEvents(db, acme, person.personId, 1);
  });

  it('replays a refusal instead of running the request again', async () => {
    const person = await createPerson(credentials.api, acme.token);
    const wrong = { ...person, password: 'not the password at all' };
    const first = await credentials.api.post(INVALIDATE, wrong, withKey('refused-1'));
    const retry = await credentials.api.post(INVALIDATE, wrong, withKey('refused-1'));

    expectProblem(first, 422, 'invalid_credentials');
    expect(answerOf(retry)).toEqual(answerOf(first));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    await expectPersonUpdatedEvents(db, acme, person.personId, 0);
  });

  it('does not keep a refusal of the moment (429): the key stays free for a later retry', async () => {
    const person = await createPerson(credentials.api, acme.token);
    const wrong = { ...person, password: 'not the password at all' };
    for (let i = 0; i < 5; i++) await credentials.api.post(INVALIDATE, wrong, { token: acme.token });

    expectProblem(
      await credentials.api.post(INVALIDATE, person, withKey('locked-1')),
      429,
      'credentials_locked',
    );
    expect(await countRows(db, 'platform.idempotency_keys', { key_digest: keyDigest('locked-1') })).toBe(0);
    // Not bound to the first body: another one under the key is run, not refused as a reuse.
    expectProblem(
      await credentials.api.post(INVALIDATE, wrong, withKey('locked-1')),
      429,
      'credentials_locked',
    );
  });

  it('provisions a card once for two sends of one key; without a key the second is a conflict', async () => {
    const card = aCard();
    const first = await cards.api.post('/api/v1/cards', card, withKey('card-1'));
    const retry = await cards.api.post('/api/v1/cards', card, withKey('card-1'));

    expectStatus(first, 201, 'provision card');
    expect(answerOf(retry)).toEqual(answerOf(first));
    expect(await cardsOf(acme, card.cardId)).toBe(1);
    expectProblem(await cards.api.post('/api/v1/cards', card, { token: acme.token }), 409, 'card_exists');
  });

  it('refuses the key for another body, and changes nothing', async () => {
    const card = aCard();
    expectStatus(await cards.api.post('/api/v1/cards', card, withKey('card-2')), 201, 'provision card');
    const another = { ...aCard(), cardId: uniqueId('CARD') };

    expectProblem(
      await cards.api.post('/api/v1/cards', another, withKey('card-2')),
      422,
      'idempotency_key_reused',
    );
    expectProblem(
      await cards.api.post(
        `/api/v1/cards/${card.cardId}/status/change`,
        { status: 'BLOCKED' },
        withKey('card-2'),
      ),
      422,
      'idempotency_key_reused',
    );
    expect(await cardsOf(acme, another.cardId)).toBe(0);
    expect((await cards.api.get(`/api/v1/cards/${card.cardId}`, { token: acme.token })).body.status).toBe(
      'ACTIVE',
    );
  });

  it('keeps a late retry from undoing a later change; without a key the retry runs again', async () => {
    const card = aCard();
    expectStatus(await cards.api.post('/api/v1/cards', card, { token: acme.token }), 201, 'provision card');
    const change = (spec: string, key?: string) => {
      const headers: Record<string, string> = { 'x-tenant-code': acme.tenant.code };
      if (key) headers['idempotency-key'] = key;
      const path = `/api/v1/cards/${card.cardId}/settings/change`;
      return cards.api.post(path, settingsBody(spec), { token: acme.token, headers });
    };
    const settingsNow = async () =>
      (await cards.api.get(`/api/v1/cards/${card.cardId}/settings`, { token: acme.token })).body;
    const changes = {
      type: 'CARD_SETTINGS_CHANGED',
      tenantCode: acme.tenant.code,
      data: { cardId: card.cardId },
    };
    const first = '00+ 0A- 0C- 01- 20- 30-';
    const later = '00- 0A- 0C- 01- 20- 30-';

    expectStatus(await change(first, `${card.cardId}-1`), 200, 'first change');
    expectStatus(await change(later, `${card.cardId}-2`), 200, 'later change');
    const retry = await change(first, `${card.cardId}-1`);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await settingsNow()).toMatchObject(settingsBody(later));
    await expectOutboxEvents(db, changes, 2);

    expectStatus(await change(first), 200, 'retry without a key');
    expect(await settingsNow()).toMatchObject(settingsBody(first));
    await expectOutboxEvents(db, changes, 3);
  });

  it('answers 409 to a retry while the first request runs, then replays its answer', async () => {
    const person = await createPerson(credentials.api, acme.token);
    const row = await holdPersonRow(db, acme.tenant.id, person.personId);
    let first: Promise<ApiResponse>;
    try {
      first = credentials.api.post(INVALIDATE, person, withKey('in-flight-1'));
      await row.waiters(1); // the first request holds its key and waits for the person
      const during = await credentials.api.post(INVALIDATE, person, withKey('in-flight-1'));
      expectProblem(during, 409, 'idempotency_key_in_flight');
      expect(Number(during.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await row.release();
    }

    const done = expectStatus(await first, 200, 'first invalidation');
    const after = await credentials.api.post(INVALIDATE, person, withKey('in-flight-1'));
    expect(answerOf(after)).toEqual(answerOf(done));
    await expectPersonUpdatedEvents(db, acme, person.personId, 1);
  });

  it('keeps the keys of two tenants apart', async () => {
    const url = 'http://127.0.0.1:9/hooks';
    const [mine, theirs] = await Promise.all([
      notifications.api.post('/api/v1/webhook-endpoints', { url }, withKey('endpoint-shared', acme)),
      notifications.api.post('/api/v1/webhook-endpoints', { url }, withKey('endpoint-shared', other)),
    ]);

    expectStatus(mine, 201, 'acme endpoint');
    expectStatus(theirs, 201, 'other endpoint');
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('registers a webhook endpoint once for two sends of one key, and twice without a key', async () => {
    const tenant = await stack.createTenant();
    const url = 'http://127.0.0.1:9/once';
    const first = await notifications.api.post(
      '/api/v1/webhook-endpoints',
      { url },
      withKey('endpoint-1', tenant),
    );
    const retry = await notifications.api.post(
      '/api/v1/webhook-endpoints',
      { url },
      withKey('endpoint-1', tenant),
    );
    expectStatus(first, 201, 'register');
    expect(answerOf(retry)).toEqual(answerOf(first));
    expect(await endpointsOf(tenant)).toBe(1);
    // The signing secret is shown once: the table keeps the answer sealed with the key, and not the key.
    const stored = JSON.stringify(
      await selectRows(db, 'platform.idempotency_keys', { tenant_id: tenant.tenant.id }),
    );
    expect(stored).not.toContain(first.body.secret);
    expect(stored).not.toContain('endpoint-1');

    for (let i = 0; i < 2; i++) {
      expectStatus(
        await notifications.api.post('/api/v1/webhook-endpoints', { url }, { token: tenant.token }),
        201,
        'register',
      );
    }
    expect(await endpointsOf(tenant)).toBe(3);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['not printable ASCII', 'schl\u00fcssel'],
  ])('refuses a key that is %s with 400, and changes nothing', async (_what, key) => {
    const card = aCard();
    const r = await cards.api.post('/api/v1/cards', card, withKey(key));
    expectProblem(r, 400, 'idempotency_key_invalid');
    expect(r.body.errors).toEqual([expect.objectContaining({ field: 'header:idempotency-key' })]);
    expect(await cardsOf(acme, card.cardId)).toBe(0);
  });

  it('documents the header and its answers on every POST that takes it', async () => {
    const doc = (await cards.api.get('/docs-json')).body;
    const create = doc.paths['/api/v1/cards'].post;
    expect(create.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
    );
    expect(create.responses['409'].description).toMatch(/card_exists.*idempotency_key_in_flight/);
    expect(create.responses['422'].description).toMatch(/idempotency_key_reused/);
    const quote = doc.paths['/api/v1/transactions/calculate-fees'].post;
    expect(quote.parameters ?? []).not.toContainEqual(expect.objectContaining({ name: 'Idempotency-Key' }));
    expect(JSON.stringify(doc)).not.toContain('x-fincore-without-idempotency-key');
  });
});
