import { CardApiApp } from '../apps/card-api/src/app.definition';
import { AccountRepository } from '../apps/card-api/src/accounts/account.repository';
import { CardRepository } from '../apps/card-api/src/cards/card.repository';
import { CARDS_ENTITIES } from '../apps/card-api/src/cards/cards.module';
import { CardsDemoSeed } from '../apps/card-api/src/cards/demo.seed';
import { RunningApp, TestStack, TenantFixture } from './support/stack';

describe('card-api: accounts, usage groups, cards (provisioning)', () => {
  let stack: TestStack;
  let sut: RunningApp;
  let acme: TenantFixture;
  let other: TenantFixture;

  beforeAll(async () => {
    stack = await TestStack.create();
    sut = await stack.startApp(CardApiApp);
    await stack.db(CARDS_ENTITIES);
    acme = await stack.createTenant();
    other = await stack.createTenant();
  });
  afterAll(() => stack.close());

  const count = async (table: string) =>
    Number((await (await stack.db()).query(`SELECT count(*)::int AS n FROM cards.${table}`))[0].n);

  it('opens an account, shows it, refuses a duplicate with 409 and hides it from other tenants', async () => {
    const created = await sut.api.post(
      '/api/v1/accounts',
      { accountId: 'ACC-1', type: 'CURRENT', currencyCode: 'EUR' },
      { token: acme.token },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      accountId: 'ACC-1',
      type: 'CURRENT',
      currencyCode: 'EUR',
      status: 'ACTIVE',
    });

    const again = await sut.api.post(
      '/api/v1/accounts',
      { accountId: 'ACC-1', type: 'CREDIT', currencyCode: 'USD' },
      { token: acme.token },
    );
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('account_exists');

    expect((await sut.api.get('/api/v1/accounts/ACC-1', { token: acme.token })).body.type).toBe('CURRENT');
    const foreign = await sut.api.get('/api/v1/accounts/ACC-1', { token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('account_not_found');
    // The same business id is free in another tenant.
    expect(
      (
        await sut.api.post(
          '/api/v1/accounts',
          { accountId: 'ACC-1', type: 'PREPAID', currencyCode: 'CHF' },
          { token: other.token },
        )
      ).status,
    ).toBe(201);
  });

  it('refuses malformed accounts with 400 and stores nothing', async () => {
    const before = await count('accounts');
    const r = await sut.api.post(
      '/api/v1/accounts',
      { accountId: 'ACC-X', type: 'SAVINGS', currencyCode: 'eur' },
      { token: acme.token },
    );
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['currencyCode', 'type']);
    expect(await count('accounts')).toBe(before);
  });

  it('provisions a card with default settings from its usage group and exposes it to fee quotation through CardRepository and AccountRepository', async () => {
    const group = await sut.api.post(
      '/api/v1/usage-groups',
      {
        code: 'ALL',
        name: 'Everything',
        allowedServiceCodes: ['00', '0A', '0C', '0M', '01', '09', '10', '11', '20', '21', '28', '30', '39'],
      },
      { token: acme.token },
    );
    expect(group.status).toBe(201);
    const card = await sut.api.post(
      '/api/v1/cards',
      { cardId: 'MC-1', accountId: 'ACC-1', network: 'MASTERCARD', cardType: 'DEBIT', usageGroup: 'ALL' },
      { token: acme.token },
    );
    expect(card.status).toBe(201);
    expect(card.body).toMatchObject({
      cardId: 'MC-1',
      accountId: 'ACC-1',
      network: 'MASTERCARD',
      cardType: 'DEBIT',
      status: 'ACTIVE',
      settingsVersion: 1,
    });
    // VISA-only codes 10 and 11 do not apply to a MASTERCARD card even in a group that lists them.
    expect(card.body.settings.authorisationTypes.map((a: { serviceCode: string }) => a.serviceCode)).toEqual([
      '00',
      '0A',
      '0C',
      '0M',
      '01',
      '09',
      '20',
      '21',
      '28',
      '30',
      '39',
    ]);
    expect(card.body.settings.authorisationTypes.every((a: { allowed: boolean }) => a.allowed)).toBe(true);
    expect(card.body.settings).toMatchObject({ renewable: true, xpaysAllowed: false });
    expect((await sut.api.get('/api/v1/cards/MC-1', { token: acme.token })).body).toEqual(card.body);

    const cards = sut.app.get(CardRepository);
    const accounts = sut.app.get(AccountRepository);
    expect(await cards.findRef(acme.tenant.id, 'MC-1')).toEqual({
      cardId: 'MC-1',
      accountId: 'ACC-1',
      network: 'MASTERCARD',
      cardType: 'DEBIT',
      status: 'ACTIVE',
    });
    expect(await cards.findRef(other.tenant.id, 'MC-1')).toBeNull();
    expect(await accounts.findRef(acme.tenant.id, 'ACC-1')).toEqual({
      accountId: 'ACC-1',
      type: 'CURRENT',
      currencyCode: 'EUR',
      status: 'ACTIVE',
      cardTypes: ['DEBIT'],
    });
    expect(await accounts.findRef(acme.tenant.id, 'NOPE')).toBeNull();
  });

  it('refuses cards on unknown accounts or usage groups (422), duplicates (409), and changes nothing', async () => {
    const before = await count('cards');
    const base = {
      cardId: 'V-9',
      accountId: 'ACC-1',
      network: 'VISA',
      cardType: 'CREDIT',
      usageGroup: 'ALL',
    };
    const noAccount = await sut.api.post(
      '/api/v1/cards',
      { ...base, accountId: 'ACC-404' },
      { token: acme.token },
    );
    expect([noAccount.status, noAccount.body.code]).toEqual([422, 'unknown_account']);
    const noGroup = await sut.api.post(
      '/api/v1/cards',
      { ...base, usageGroup: 'NOPE' },
      { token: acme.token },
    );
    expect([noGroup.status, noGroup.body.code]).toEqual([422, 'unknown_usage_group']);
    // The other tenant's account of the same id does not count: ACC-1 of `other` has no group ALL.
    const foreignGroup = await sut.api.post('/api/v1/cards', base, { token: other.token });
    expect([foreignGroup.status, foreignGroup.body.code]).toEqual([422, 'unknown_usage_group']);
    const dup = await sut.api.post('/api/v1/cards', { ...base, cardId: 'MC-1' }, { token: acme.token });
    expect([dup.status, dup.body.code]).toEqual([409, 'card_exists']);
    const bad = await sut.api.post(
      '/api/v1/cards',
      { ...base, network: 'AMEX', extra: 1 },
      { token: acme.token },
    );
    expect(bad.status).toBe(400);
    expect(await count('cards')).toBe(before);
    const foreignCard = await sut.api.get('/api/v1/cards/MC-1', { token: other.token });
    expect([foreignCard.status, foreignCard.body.code]).toEqual([404, 'card_not_found']);
  });

  it('needs cards:write to provision and cards:read to read', async () => {
    const reader = await acme.tokenWith(['cards:read']);
    const r = await sut.api.post(
      '/api/v1/accounts',
      { accountId: 'ACC-R', type: 'CURRENT', currencyCode: 'EUR' },
      { token: reader },
    );
    expect([r.status, r.body.code]).toEqual([403, 'insufficient_scope']);
    expect((await sut.api.get('/api/v1/cards/MC-1', { token: reader })).status).toBe(200);
    const writerOnly = await acme.tokenWith(['pricing:read']);
    expect((await sut.api.get('/api/v1/cards/MC-1', { token: writerOnly })).status).toBe(403);
  });

  it('seeds demo data idempotently: usage groups, accounts and cards of both networks, usable through the API', async () => {
    const demo = await stack.createTenant();
    const db = await stack.db();
    const first = await db.transaction((m) => CardsDemoSeed.seed(m, demo.tenant));
    const second = await db.transaction((m) => CardsDemoSeed.seed(m, demo.tenant));
    expect(second).toEqual(first);
    expect((first.usageGroups as Array<{ code: string }>).map((g) => g.code)).toEqual([
      'ATM_ONLY',
      'STANDARD_DEBIT',
      'VISA_ALL',
    ]);
    expect(new Set((first.cards as Array<{ network: string }>).map((c) => c.network))).toEqual(
      new Set(['VISA', 'MASTERCARD']),
    );

    const settings = await sut.api.get('/api/v1/cards/CARD-DEMO-VISA-1/settings', { token: demo.token });
    expect(settings.body).toMatchObject({ usageGroup: 'STANDARD_DEBIT', network: 'VISA', version: 1 });
    const atm = await sut.api.post(
      '/api/v1/cards/CARD-DEMO-MC-ATM-1/authorisations/check',
      { serviceCode: '0A' },
      { token: demo.token },
    );
    expect(atm.body).toMatchObject({ allowed: false, reason: 'NOT_IN_USAGE_GROUP' });
  });

  it('manages usage groups: 409 on a taken code, 404 for an unknown or foreign one, 400 on unknown or repeated codes', async () => {
    const create = (body: unknown, token = acme.token) =>
      sut.api.post('/api/v1/usage-groups', body, { token });
    expect(
      (await create({ code: 'ATM', name: 'ATM only', allowedServiceCodes: ['39', '01', '30'] })).body
        .allowedServiceCodes,
    ).toEqual(['01', '30', '39']);
    const taken = await create({ code: 'ATM', name: 'Again', allowedServiceCodes: ['01'] });
    expect([taken.status, taken.body.code]).toEqual([409, 'usage_group_exists']);
    const before = await count('usage_groups');
    expect((await create({ code: 'BAD', name: 'Bad', allowedServiceCodes: ['01', '77'] })).status).toBe(400);
    expect((await create({ code: 'BAD', name: 'Bad', allowedServiceCodes: ['01', '01'] })).status).toBe(400);
    expect((await create({ code: 'BAD', name: 'Bad', allowedServiceCodes: [] })).status).toBe(400);
    expect(await count('usage_groups')).toBe(before);
    const foreign = await sut.api.get('/api/v1/usage-groups/ATM', { token: other.token });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'usage_group_not_found']);
    const foreignUpdate = await sut.api.put(
      '/api/v1/usage-groups/ATM',
      { name: 'x', allowedServiceCodes: ['00'] },
      { token: other.token },
    );
    expect(foreignUpdate.status).toBe(404);
    expect(
      (await sut.api.get('/api/v1/usage-groups/ATM', { token: acme.token })).body.allowedServiceCodes,
    ).toEqual(['01', '30', '39']);
    const list = await sut.api.get('/api/v1/usage-groups', { token: acme.token });
    expect(list.body.items.map((g: { code: string }) => g.code)).toEqual(
      expect.arrayContaining(['ALL', 'ATM']),
    );
  });

  it('applies the settings rules to initial settings given at provisioning', async () => {
    const base = {
      cardId: 'ATM-1',
      accountId: 'ACC-1',
      network: 'MASTERCARD',
      cardType: 'PREPAID',
      usageGroup: 'ATM',
    };
    const before = await count('cards');
    const missing = await sut.api.post(
      '/api/v1/cards',
      {
        ...base,
        settings: {
          authorisationTypes: [{ serviceCode: '01', allowed: true }],
          renewable: false,
          xpaysAllowed: false,
        },
      },
      { token: acme.token },
    );
    expect([missing.status, missing.body.code, missing.body.serviceCodes]).toEqual([
      422,
      'service_codes_missing',
      ['30', '39'],
    ]);
    expect(await count('cards')).toBe(before);
    const ok = await sut.api.post(
      '/api/v1/cards',
      {
        ...base,
        settings: {
          authorisationTypes: [
            { serviceCode: '01', allowed: true },
            { serviceCode: '30', allowed: false },
            { serviceCode: '39', allowed: true },
          ],
          renewable: false,
          xpaysAllowed: true,
        },
      },
      { token: acme.token },
    );
    expect(ok.status).toBe(201);
    expect(ok.body.settings).toEqual({
      authorisationTypes: [
        { serviceCode: '01', allowed: true },
        { serviceCode: '30', allowed: false },
        { serviceCode: '39', allowed: true },
      ],
      renewable: false,
      xpaysAllowed: true,
    });
  });
});
