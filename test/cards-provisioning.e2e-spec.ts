import { CardApiApp } from '../apps/card-api/src/app.definition';
import { AccountRepository } from '../apps/card-api/src/cards/accounts/account.repository';
import { CardRepository } from '../apps/card-api/src/cards/card/card.repository';
import { startAppWorld } from './support/app-world';
import { createUsageGroup } from './support/builders/usage-groups';
import { ALL_CODES } from './support/card-settings';
import { countRows } from './support/db';
import { RunningApp, TestStack, TenantFixture } from './support/stack';
import { expectProblem } from './support/problems';

describe('card-api: accounts and cards (provisioning)', () => {
  let stack: TestStack, sut: RunningApp, acme: TenantFixture, other: TenantFixture;
  beforeAll(async () => ({ stack, sut, acme, other } = await startAppWorld(CardApiApp)));
  afterAll(() => stack.close());

  const count = async (table: string) => countRows(await stack.db(), `cards.${table}`);

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
        allowedServiceCodes: ALL_CODES,
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
    expect(card.body.settings.authorisationTypes.map((a: { serviceCode: string }) => a.serviceCode)).toEqual(
      ALL_CODES.filter((code) => code !== '10' && code !== '11'),
    );
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
    expectProblem(noAccount, 422, 'unknown_account');
    const noGroup = await sut.api.post(
      '/api/v1/cards',
      { ...base, usageGroup: 'NOPE' },
      { token: acme.token },
    );
    expectProblem(noGroup, 422, 'unknown_usage_group');
    // The other tenant's account of the same id does not count: ACC-1 of `other` has no group ALL.
    const foreignGroup = await sut.api.post('/api/v1/cards', base, { token: other.token });
    expectProblem(foreignGroup, 422, 'unknown_usage_group');
    const dup = await sut.api.post('/api/v1/cards', { ...base, cardId: 'MC-1' }, { token: acme.token });
    expectProblem(dup, 409, 'card_exists');
    const bad = await sut.api.post(
      '/api/v1/cards',
      { ...base, network: 'AMEX', extra: 1 },
      { token: acme.token },
    );
    expect(bad.status).toBe(400);
    expect(await count('cards')).toBe(before);
    const foreignCard = await sut.api.get('/api/v1/cards/MC-1', { token: other.token });
    expectProblem(foreignCard, 404, 'card_not_found');
  });

  it('needs cards:write to provision and cards:read to read', async () => {
    const reader = await acme.tokenWith(['cards:read']);
    const r = await sut.api.post(
      '/api/v1/accounts',
      { accountId: 'ACC-R', type: 'CURRENT', currencyCode: 'EUR' },
      { token: reader },
    );
    expectProblem(r, 403, 'insufficient_scope');
    expect((await sut.api.get('/api/v1/cards/MC-1', { token: reader })).status).toBe(200);
    const writerOnly = await acme.tokenWith(['pricing:read']);
    expect((await sut.api.get('/api/v1/cards/MC-1', { token: writerOnly })).status).toBe(403);
  });

  it('applies the settings rules to initial settings given at provisioning', async () => {
    await createUsageGroup(sut.api, acme.token, {
      code: 'ATM',
      name: 'ATM only',
      allowedServiceCodes: ['39', '01', '30'],
    });
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
