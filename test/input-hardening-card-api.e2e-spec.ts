import { CardApiApp } from '../apps/card-api/src/app.definition';
import { STANDARD_PRICE_LIST_RULES } from '../apps/card-api/src/pricing/domain/standard-catalog';
import { AppWorld, startAppWorld } from './support/app-world';
import { createAccount } from './support/builders/accounts';
import { createCard } from './support/builders/cards';
import { uniqueId } from './support/builders/ids';
import { priceListInput, putPricingCatalog } from './support/builders/pricing';
import { createUsageGroup } from './support/builders/usage-groups';
import { expectProblem } from './support/problems';
import { itRefusesEach, LONE_SURROGATE_TEXT, NUL_TEXT } from './support/refusals';

// Input that once reached PostgreSQL or decimal.js as a 500: control characters and unpaired
// surrogates in free text, decimals that are no numbers, integers beyond int4.

describe('card-api: input that PostgreSQL or decimal.js would fail on', () => {
  let world: AppWorld;
  let group: string;
  let cardId: string;
  beforeAll(async () => {
    world = await startAppWorld(CardApiApp);
    const { sut, token } = world;
    group = (await createUsageGroup(sut.api, token)).code;
    const account = await createAccount(sut.api, token);
    cardId = (await createCard(sut.api, token, { accountId: account.accountId, usageGroup: group })).cardId;
    await putPricingCatalog(sut.api, token, {
      transactionTypes: [{ code: 'POS_PURCHASE', name: 'Purchase' }],
      labels: [{ code: 'INTERNATIONAL', name: 'Abroad' }],
    });
  });
  afterAll(() => world.stack.close());

  const tables = [
    'cards.usage_groups',
    'cards.card_settings_changes',
    'pricing.transaction_types',
    'pricing.labels',
    'pricing.price_lists',
    'pricing.exchange_rates',
  ];
  const priceList = (rule: Record<string, unknown>) =>
    priceListInput({ rules: [{ ...STANDARD_PRICE_LIST_RULES[0], ...rule }] });
  const rate = (value: string) => () => ({
    baseCurrency: 'EUR',
    quoteCurrency: 'USD',
    validFrom: '2026-01-01',
    rate: value,
  });
  const history = (query: string) => () => `/api/v1/cards/${cardId}/settings/history?${query}`;
  const PUT = 'PUT';
  const POST = 'POST';

  describe('free text', () => {
    itRefusesEach(() => world, tables, [
      {
        what: 'NUL in a usage group name',
        method: POST,
        path: () => '/api/v1/usage-groups',
        body: () => ({ code: uniqueId('UG'), name: NUL_TEXT, allowedServiceCodes: ['00'] }),
        field: 'name',
      },
      {
        what: 'an unpaired surrogate in a usage group name',
        method: PUT,
        path: () => `/api/v1/usage-groups/${group}`,
        body: () => ({ name: LONE_SURROGATE_TEXT, allowedServiceCodes: ['00'] }),
        field: 'name',
      },
      {
        what: 'NUL in a transaction type name',
        method: PUT,
        path: () => '/api/v1/transaction-types/NEW_TYPE',
        body: () => ({ name: NUL_TEXT }),
        field: 'name',
      },
      {
        what: 'an escape character in a label name',
        method: PUT,
        path: () => '/api/v1/transaction-labels/NEW_LABEL',
        body: () => ({ name: 'a\u001bb' }),
        field: 'name',
      },
      {
        what: 'NUL in a price list name',
        method: POST,
        path: () => '/api/v1/price-lists',
        body: () => ({ ...priceList({}), name: NUL_TEXT }),
        field: 'name',
      },
      {
        what: 'NUL in a fee rule description',
        method: POST,
        path: () => '/api/v1/price-lists',
        body: () => priceList({ description: NUL_TEXT }),
        field: 'rules[0].description',
      },
      {
        what: 'NUL in a service code',
        method: POST,
        path: () => `/api/v1/cards/${cardId}/authorisations/check`,
        body: () => ({ serviceCode: '0\u0000' }),
        field: 'serviceCode',
      },
    ]);
  });

  describe('decimal strings', () => {
    const list = (rule: Record<string, unknown>) => () => priceList(rule);
    const rates = '/api/v1/exchange-rates';
    const lists = '/api/v1/price-lists';
    itRefusesEach(() => world, tables, [
      { what: 'a rate of 1e309', method: PUT, path: () => rates, body: rate('1e309'), field: 'rate' },
      { what: 'a rate of NaN', method: PUT, path: () => rates, body: rate('NaN'), field: 'rate' },
      { what: 'a rate of 1.2.3', method: PUT, path: () => rates, body: rate('1.2.3'), field: 'rate' },
      {
        what: 'a rate with a leading space',
        method: PUT,
        path: () => rates,
        body: rate(' 1'),
        field: 'rate',
      },
      {
        what: 'a minimum that is no number',
        method: POST,
        path: () => lists,
        body: list({ minimum: 'abc' }),
        field: 'rules[0].minimum',
      },
      {
        what: 'a maximum of -0',
        method: POST,
        path: () => lists,
        body: list({ maximum: '-0' }),
        field: 'rules[0].maximum',
      },
      {
        what: 'a fixed amount of Infinity',
        method: POST,
        path: () => lists,
        body: list({ calculation: { kind: 'FIXED', amount: 'Infinity' } }),
        field: 'rules[0].calculation.amount',
      },
      {
        what: 'a percentage with an exponent',
        method: POST,
        path: () => lists,
        body: list({ calculation: { kind: 'PERCENTAGE', ratePercent: '1e2' } }),
        field: 'rules[0].calculation.ratePercent',
      },
      {
        what: 'a tier bound of 1.2.3',
        method: POST,
        path: () => lists,
        body: list({
          calculation: {
            kind: 'TIERED',
            mode: 'VOLUME',
            tiers: [
              { upTo: '1.2.3', flatAmount: '1.00' },
              { upTo: null, flatAmount: '2.00' },
            ],
          },
        }),
        field: 'rules[0].calculation.tiers[0].upTo',
      },
    ]);

    it('refuses an amount of 1e309 (Infinity once parsed) in a fee quote', async () => {
      const { sut, token } = world;
      const body =
        '{"postingDate":"2026-03-01","transactionTypeCode":"POS_PURCHASE","accountId":"ACC-1",' +
        '"transactionAmount":{"amount":1e309,"currencyCode":"EUR"}}';
      const r = await sut.api.post('/api/v1/transactions/calculate-fees', body, {
        token,
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(r, 400, 'validation_failed');
      expect(r.body.errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: 'transactionAmount.amount' })]),
      );
    });
  });

  describe('integer parameters', () => {
    itRefusesEach(() => world, tables, [
      {
        what: 'a beforeVersion of 2^31',
        method: 'GET',
        path: history(`beforeVersion=${2 ** 31}`),
        field: 'beforeVersion',
      },
      {
        what: 'a beforeVersion of 2^53 + 1',
        method: 'GET',
        path: history('beforeVersion=9007199254740993'),
        field: 'beforeVersion',
      },
      { what: 'a limit with an exponent', method: 'GET', path: history('limit=1e2'), field: 'limit' },
      { what: 'an empty limit', method: 'GET', path: history('limit='), field: 'limit' },
    ]);
  });

  it('still takes names in any script, trimmed, and the int4 maximum as beforeVersion', async () => {
    const { sut, token } = world;
    const r = await sut.api.put(
      '/api/v1/transaction-labels/FAR_EAST',
      { name: '  東京 😀 Ünïcødé ' },
      { token },
    );
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('東京 😀 Ünïcødé');
    const page = await sut.api.get(history(`beforeVersion=${2 ** 31 - 1}`)(), { token });
    expect(page.status).toBe(200);
  });
});
