import { CardApiApp } from '../apps/card-api/src/app.definition';
import {
  PREMIUM_CARD_RULES,
  STANDARD_EXCHANGE_RATES,
  STANDARD_LABELS,
  STANDARD_PRICE_LIST_RULES,
  STANDARD_TRANSACTION_TYPES,
} from '../apps/card-api/src/pricing/domain/standard-catalog';
import type { ApiClient } from './support/http';
import { RunningApp, TestStack } from './support/stack';

/** Provisions a tenant the way a pricing team would: catalogs, rates, the standard tariff, accounts and cards. */
async function provisionTenant(api: ApiClient, token: string, suffix: string) {
  const ok = (r: { status: number; text: string }, status = 200) => {
    if (r.status !== status) throw new Error(`provisioning failed (${r.status}): ${r.text}`);
  };
  for (const t of STANDARD_TRANSACTION_TYPES) {
    ok(
      await api.put(
        `/api/v1/transaction-types/${t.code}`,
        { name: t.name, zeroAmountAllowed: t.zeroAmountAllowed },
        { token },
      ),
    );
  }
  for (const l of STANDARD_LABELS)
    ok(await api.put(`/api/v1/transaction-labels/${l.code}`, { name: l.name }, { token }));
  for (const r of STANDARD_EXCHANGE_RATES) ok(await api.put('/api/v1/exchange-rates', r, { token }));
  const standard = await api.post(
    '/api/v1/price-lists',
    {
      code: 'STANDARD-2026',
      name: 'Standard tariff 2026',
      level: 'TENANT',
      validFrom: '2026-01-01',
      rules: STANDARD_PRICE_LIST_RULES,
    },
    { token },
  );
  ok(standard, 201);
  ok(
    await api.post(
      '/api/v1/usage-groups',
      { code: 'STD', name: 'Standard', allowedServiceCodes: ['00', '0A', '01', '30'] },
      { token },
    ),
    201,
  );
  const accounts = { current: `ACC-CUR-${suffix}`, credit: `ACC-CRE-${suffix}`, other: `ACC-OTH-${suffix}` };
  ok(
    await api.post(
      '/api/v1/accounts',
      { accountId: accounts.current, type: 'CURRENT', currencyCode: 'EUR' },
      { token },
    ),
    201,
  );
  ok(
    await api.post(
      '/api/v1/accounts',
      { accountId: accounts.credit, type: 'CREDIT', currencyCode: 'EUR' },
      { token },
    ),
    201,
  );
  ok(
    await api.post(
      '/api/v1/accounts',
      { accountId: accounts.other, type: 'CURRENT', currencyCode: 'EUR' },
      { token },
    ),
    201,
  );
  const cards = { debit: `CARD-DEB-${suffix}`, premium: `CARD-PRE-${suffix}`, credit: `CARD-CRE-${suffix}` };
  const card = (cardId: string, accountId: string, cardType: string) =>
    api.post('/api/v1/cards', { cardId, accountId, network: 'VISA', cardType, usageGroup: 'STD' }, { token });
  ok(await card(cards.debit, accounts.current, 'DEBIT'), 201);
  ok(await card(cards.premium, accounts.current, 'DEBIT'), 201);
  ok(await card(cards.credit, accounts.credit, 'CREDIT'), 201);
  return { accounts, cards, standardId: standard.body.id as string };
}

describe('fee quotation (POST /api/v1/transactions/calculate-fees)', () => {
  let stack: TestStack;
  let sut: RunningApp;
  let token: string;
  let world: Awaited<ReturnType<typeof provisionTenant>>;

  beforeAll(async () => {
    stack = await TestStack.create();
    sut = await stack.startApp(CardApiApp);
    token = (await stack.createTenant()).token;
    world = await provisionTenant(sut.api, token, 'A');
  });
  afterAll(() => stack.close());

  const quote = (
    body: Record<string, unknown>,
    options: { token?: string; headers?: Record<string, string> } = {},
  ) => sut.api.post('/api/v1/transactions/calculate-fees', body, { token, ...options });

  // June: outside the March account and card lists of the resolution test.
  const atmAbroad = () => ({
    postingDate: '2026-06-15',
    transactionTypeCode: 'ATM_WITHDRAWAL',
    transactionAmount: { amount: 100, currencyCode: 'EUR' },
    labels: ['INTERNATIONAL'],
    accountId: world.accounts.current,
    cardId: world.cards.debit,
  });

  const expectProblem = (
    r: { status: number; headers: Headers; body: any },
    status: number,
    code: string,
  ) => {
    expect(r.status).toBe(status);
    expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(r.body.code).toBe(code);
  };

  it('quotes worked example 3 of docs/fees.md with the full breakdown and echoes the request', async () => {
    const r = await quote(atmAbroad());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ...atmAbroad(),
      totalPrice: { amount: 7.76, currencyCode: 'EUR' },
      roundingMode: 'HALF_UP',
    });
    expect(r.body.priceList).toEqual({ id: world.standardId, code: 'STANDARD-2026', level: 'TENANT' });
    const [atm, operator] = r.body.fees;
    expect(atm).toMatchObject({
      feeTypeCode: 'ATM_WITHDRAWAL_FEE',
      amount: 5,
      currencyCode: 'EUR',
      calculation: {
        kind: 'PERCENTAGE',
        ratePercent: '2',
        base: 100,
        calculatedAmount: 2,
        minimum: 5,
        maximum: 15,
        capApplied: 'MINIMUM',
      },
      conversion: null,
    });
    expect(operator).toMatchObject({
      feeTypeCode: 'ATM_OPERATOR_FEE',
      amount: 2.76,
      calculation: { kind: 'FIXED', fixedAmount: 2.76 },
      conversion: { fromCurrency: 'USD', toCurrency: 'EUR', rate: '0.92', rateValidFrom: '2026-01-01' },
    });
  });

  it('quotes JPY without decimals, BHD with three, and a free transaction as 0', async () => {
    const jpy = await quote({
      ...atmAbroad(),
      transactionAmount: { amount: 30000, currencyCode: 'JPY' },
      labels: ['INTERNATIONAL', 'CURRENCY_CONVERSION'],
    });
    expect(jpy.body.totalPrice).toEqual({ amount: 1786, currencyCode: 'JPY' });
    const bhd = await quote({
      ...atmAbroad(),
      transactionTypeCode: 'POS_PURCHASE',
      transactionAmount: { amount: 12.345, currencyCode: 'BHD' },
      labels: ['CURRENCY_CONVERSION'],
    });
    expect(bhd.body.totalPrice).toEqual({ amount: 0.216, currencyCode: 'BHD' });
    const free = await quote({ ...atmAbroad(), labels: ['DOMESTIC', 'OWN_NETWORK'] });
    expect(free.body).toMatchObject({ totalPrice: { amount: 0, currencyCode: 'EUR' }, fees: [] });
  });

  it('resolves card, then account, then tenant price lists, each by validity on the posting date', async () => {
    const transfer = {
      ...atmAbroad(),
      postingDate: '2026-03-15',
      transactionTypeCode: 'TRANSFER',
      transactionAmount: { amount: 2500, currencyCode: 'EUR' },
      labels: [],
    };
    expect((await quote(transfer)).body.totalPrice.amount).toBe(8.75); // tenant standard, graduated

    const accountList = await sut.api.post(
      '/api/v1/price-lists',
      {
        code: 'ACC-A-2026',
        name: 'Account tariff',
        level: 'ACCOUNT',
        accountId: world.accounts.current,
        validFrom: '2026-03-01',
        validTo: '2026-03-31',
        rules: [
          { ...STANDARD_PRICE_LIST_RULES[5], calculation: { kind: 'FIXED', amount: '1.00' }, maximum: null },
        ],
      },
      { token },
    );
    expect(accountList.status).toBe(201);
    const cardList = await sut.api.post(
      '/api/v1/price-lists',
      {
        code: 'PREMIUM-A',
        name: 'Premium card',
        level: 'CARD',
        cardId: world.cards.premium,
        validFrom: '2026-01-01',
        validTo: '2026-03-20',
        rules: PREMIUM_CARD_RULES,
      },
      { token },
    );
    expect(cardList.status).toBe(201);

    const premium = await quote({ ...transfer, cardId: world.cards.premium });
    expect(premium.body.totalPrice.amount).toBe(5); // card list, volume tier 2
    expect(premium.body.priceList.level).toBe('CARD');
    expect(
      (await quote({ ...transfer, cardId: world.cards.premium, postingDate: '2026-03-21' })).body.priceList
        .code,
    ).toBe('ACC-A-2026');
    expect((await quote(transfer)).body).toMatchObject({
      totalPrice: { amount: 1 },
      priceList: { code: 'ACC-A-2026' },
    });
    expect((await quote({ ...transfer, postingDate: '2026-04-01' })).body.priceList.code).toBe(
      'STANDARD-2026',
    );
    expect(
      (await quote({ ...transfer, cardId: world.cards.premium, postingDate: '2026-04-01' })).body.priceList
        .code,
    ).toBe('STANDARD-2026');
    expect(
      (await quote({ ...transfer, cardId: world.cards.premium, postingDate: '2026-02-28' })).body.priceList
        .code,
    ).toBe('PREMIUM-A');
  });

  it('sees a changed price list at once (cache invalidated on write)', async () => {
    const body = { ...atmAbroad(), postingDate: '2027-01-10', labels: ['DOMESTIC'] };
    expect((await quote(body)).body.totalPrice.amount).toBe(2);
    const list = await sut.api.get(`/api/v1/price-lists/${world.standardId}`, { token });
    const rules = list.body.rules.map((r: any) =>
      r.feeTypeCode === 'ATM_WITHDRAWAL_FEE' && r.labelsAll.length === 0
        ? { ...r, calculation: { kind: 'FIXED', amount: '2.50' } }
        : r,
    );
    const put = await sut.api.put(
      `/api/v1/price-lists/${world.standardId}`,
      {
        code: 'STANDARD-2026',
        name: list.body.name,
        level: 'TENANT',
        validFrom: '2026-01-01',
        validTo: null,
        rules,
      },
      { token },
    );
    expect(put.status).toBe(200);
    expect(put.body.version).toBe(2);
    expect((await quote(body)).body.totalPrice.amount).toBe(2.5);
  });

  it('needs cardId for a CURRENT account (debit cards) but not for a CREDIT account', async () => {
    const { cardId: _, ...withoutCard } = atmAbroad();
    const r = await quote(withoutCard);
    expectProblem(r, 422, 'card_required');
    expect(r.body.detail).toContain(world.accounts.current);
    const credit = await quote({ ...withoutCard, accountId: world.accounts.credit });
    expect(credit.status).toBe(200);
    expect(credit.body.cardId).toBeNull();
  });

  it('needs cardId for any account that carries a debit, prepaid or gift card, whatever the account type', async () => {
    const accountId = 'ACC-CRE-WITH-GIFT';
    const provision = [
      await sut.api.post('/api/v1/accounts', { accountId, type: 'CREDIT', currencyCode: 'EUR' }, { token }),
      await sut.api.post(
        '/api/v1/cards',
        { cardId: 'CARD-GIFT-ON-CREDIT', accountId, network: 'VISA', cardType: 'GIFT', usageGroup: 'STD' },
        { token },
      ),
    ];
    expect(provision.map((r) => r.status)).toEqual([201, 201]);
    const { cardId: _, ...withoutCard } = atmAbroad();
    const r = await quote({ ...withoutCard, accountId });
    expectProblem(r, 422, 'card_required');
    expect(r.body.detail).toContain(accountId);
    expect((await quote({ ...withoutCard, accountId, cardId: 'CARD-GIFT-ON-CREDIT' })).status).toBe(200);
  });

  it('refuses a card of another account (422) and unknown accounts and cards (404)', async () => {
    expectProblem(
      await quote({ ...atmAbroad(), accountId: world.accounts.other }),
      422,
      'card_not_on_account',
    );
    expectProblem(await quote({ ...atmAbroad(), cardId: 'CARD-NOPE' }), 404, 'card_not_found');
    const { cardId: _, ...withoutCard } = atmAbroad();
    expectProblem(await quote({ ...withoutCard, accountId: 'ACC-NOPE' }), 404, 'account_not_found');
  });

  it('answers 404 for another tenant’s account and card, and that tenant gets its own prices', async () => {
    const other = await stack.createTenant();
    const theirs = await provisionTenant(sut.api, other.token, 'B');
    const mine = atmAbroad();
    expectProblem(await quote(mine, { token: other.token }), 404, 'card_not_found');
    const { cardId: _, ...withoutCard } = mine;
    expectProblem(await quote(withoutCard, { token: other.token }), 404, 'account_not_found');
    expectProblem(
      await quote({ ...mine, accountId: theirs.accounts.current, cardId: theirs.cards.debit }),
      404,
      'card_not_found',
    );
    expectProblem(
      await sut.api.get(`/api/v1/price-lists/${world.standardId}`, { token: other.token }),
      404,
      'price_list_not_found',
    );
  });

  it('refuses unknown transaction types and labels, and zero where the type needs an amount (422)', async () => {
    expectProblem(
      await quote({ ...atmAbroad(), transactionTypeCode: 'TELEPORT' }),
      422,
      'unknown_transaction_type',
    );
    const labels = await quote({ ...atmAbroad(), labels: ['INTERNATIONAL', 'MOON'] });
    expectProblem(labels, 422, 'unknown_labels');
    expect(labels.body.detail).toContain('MOON');
    expectProblem(
      await quote({ ...atmAbroad(), transactionAmount: { amount: 0, currencyCode: 'EUR' } }),
      422,
      'zero_amount_not_allowed',
    );
    const inquiry = await quote({
      ...atmAbroad(),
      transactionTypeCode: 'BALANCE_INQUIRY',
      transactionAmount: { amount: 0, currencyCode: 'EUR' },
    });
    expect(inquiry.body.totalPrice.amount).toBe(1);
  });

  it('refuses a missing exchange rate and a date without a price list (422)', async () => {
    const r = await quote({ ...atmAbroad(), transactionAmount: { amount: 100, currencyCode: 'GBP' } });
    expectProblem(r, 422, 'exchange_rate_missing');
    expect(r.body.detail).toContain('EUR->GBP');
    expectProblem(await quote({ ...atmAbroad(), postingDate: '2025-12-31' }), 422, 'no_price_list');
  });

  it.each([
    ['a date that does not exist', { postingDate: '2026-02-30' }, 'postingDate', /does not exist/],
    ['a malformed date', { postingDate: '15.03.2026' }, 'postingDate', /YYYY-MM-DD/],
    [
      'a negative amount',
      { transactionAmount: { amount: -1, currencyCode: 'EUR' } },
      'transactionAmount.amount',
      /negative/,
    ],
    [
      'an amount as a string',
      { transactionAmount: { amount: '10', currencyCode: 'EUR' } },
      'transactionAmount.amount',
      /number/,
    ],
    [
      'cents on JPY',
      { transactionAmount: { amount: 100.5, currencyCode: 'JPY' } },
      'transactionAmount.amount',
      /JPY has 0 decimal places/,
    ],
    [
      'a tenth of a cent on EUR',
      { transactionAmount: { amount: 10.005, currencyCode: 'EUR' } },
      'transactionAmount.amount',
      /EUR has 2/,
    ],
    [
      'an unknown currency',
      { transactionAmount: { amount: 10, currencyCode: 'XYZ' } },
      'transactionAmount.currencyCode',
      /ISO 4217/,
    ],
    ['duplicate labels', { labels: ['INTERNATIONAL', 'INTERNATIONAL'] }, 'labels[1]', /duplicate/],
    ['an overlong label', { labels: ['L'.repeat(41)] }, 'labels[0]', /40/],
    ['an unknown field', { amount: 1 }, '', /amount/],
  ])('answers 400 for %s', async (_what, change, field, message) => {
    const r = await quote({ ...atmAbroad(), ...change });
    expectProblem(r, 400, 'validation_failed');
    const error = r.body.errors.find((e: { field: string }) => e.field === field);
    expect(error?.message).toMatch(message);
  });

  it('answers 400 for a non-finite amount (1e999 parses to Infinity)', async () => {
    const raw = JSON.stringify(atmAbroad()).replace('"amount":100', '"amount":1e999');
    expectProblem(
      await sut.api.post('/api/v1/transactions/calculate-fees', raw, {
        token,
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'validation_failed',
    );
  });

  it('needs the fees:quote scope and localises problems', async () => {
    const fixture = await stack.createTenant();
    expectProblem(
      await quote(atmAbroad(), { token: await fixture.tokenWith(['pricing:write']) }),
      403,
      'insufficient_scope',
    );
    const de = await quote(
      { ...atmAbroad(), transactionTypeCode: 'TELEPORT' },
      { headers: { 'accept-language': 'de' } },
    );
    expect(de.body.title).toBe('Unbekannte Transaktionsart');
  });

  it('documents the operation with request and response examples', async () => {
    const doc = await sut.api.get('/docs-json');
    const op = doc.body.paths['/api/v1/transactions/calculate-fees'].post;
    expect(op.tags).toEqual(['Fees']);
    expect(op.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/CalculateFeesRequest',
    );
    expect(doc.body.components.schemas.CalculateFeesRequest.example.transactionTypeCode).toBe(
      'ATM_WITHDRAWAL',
    );
    expect(op.responses['200'].content['application/json'].example.totalPrice).toEqual({
      amount: 7.76,
      currencyCode: 'EUR',
    });
  });
});
