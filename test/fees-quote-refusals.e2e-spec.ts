import {
  atmAbroad,
  FeeWorld,
  provisionFeeWorld,
  QuoteFees,
  startCardApiWithFeeWorld,
} from './support/builders/fee-world';
import { expectProblem } from './support/problems';
import { RunningApp, TestStack } from './support/stack';

describe('fee quotation (POST /api/v1/transactions/calculate-fees): refusals', () => {
  let stack: TestStack, sut: RunningApp, token: string, world: FeeWorld, quote: QuoteFees;
  beforeAll(async () => ({ stack, sut, token, world, quote } = await startCardApiWithFeeWorld()));
  afterAll(() => stack.close());

  it('needs cardId for a CURRENT account (debit cards) but not for a CREDIT account', async () => {
    const { cardId: _, ...withoutCard } = atmAbroad(world);
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
    const { cardId: _, ...withoutCard } = atmAbroad(world);
    const r = await quote({ ...withoutCard, accountId });
    expectProblem(r, 422, 'card_required');
    expect(r.body.detail).toContain(accountId);
    expect((await quote({ ...withoutCard, accountId, cardId: 'CARD-GIFT-ON-CREDIT' })).status).toBe(200);
  });

  it('refuses a card of another account (422) and unknown accounts and cards (404)', async () => {
    expectProblem(
      await quote({ ...atmAbroad(world), accountId: world.accounts.other }),
      422,
      'card_not_on_account',
    );
    expectProblem(await quote({ ...atmAbroad(world), cardId: 'CARD-NOPE' }), 404, 'card_not_found');
    const { cardId: _, ...withoutCard } = atmAbroad(world);
    expectProblem(await quote({ ...withoutCard, accountId: 'ACC-NOPE' }), 404, 'account_not_found');
  });

  it('answers 404 for another tenant’s account and card, and that tenant gets its own prices', async () => {
    const other = await stack.createTenant();
    const theirs = await provisionFeeWorld(sut.api, other.token, 'B');
    const mine = atmAbroad(world);
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
      await quote({ ...atmAbroad(world), transactionTypeCode: 'TELEPORT' }),
      422,
      'unknown_transaction_type',
    );
    const labels = await quote({ ...atmAbroad(world), labels: ['INTERNATIONAL', 'MOON'] });
    expectProblem(labels, 422, 'unknown_labels');
    expect(labels.body.detail).toContain('MOON');
    expectProblem(
      await quote({ ...atmAbroad(world), transactionAmount: { amount: 0, currencyCode: 'EUR' } }),
      422,
      'zero_amount_not_allowed',
    );
    const inquiry = await quote({
      ...atmAbroad(world),
      transactionTypeCode: 'BALANCE_INQUIRY',
      transactionAmount: { amount: 0, currencyCode: 'EUR' },
    });
    expect(inquiry.body.totalPrice.amount).toBe(1);
  });

  it('refuses a missing exchange rate and a date without a price list (422)', async () => {
    const r = await quote({ ...atmAbroad(world), transactionAmount: { amount: 100, currencyCode: 'GBP' } });
    expectProblem(r, 422, 'exchange_rate_missing');
    expect(r.body.detail).toContain('EUR->GBP');
    expectProblem(await quote({ ...atmAbroad(world), postingDate: '2025-12-31' }), 422, 'no_price_list');
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
    const r = await quote({ ...atmAbroad(world), ...change });
    expectProblem(r, 400, 'validation_failed');
    const error = r.body.errors.find((e: { field: string }) => e.field === field);
    expect(error?.message).toMatch(message);
  });

  it('answers 400 for a non-finite amount (1e999 parses to Infinity)', async () => {
    const raw = JSON.stringify(atmAbroad(world)).replace('"amount":100', '"amount":1e999');
    const r = await quote(raw, { headers: { 'content-type': 'application/json' } });
    expectProblem(r, 400, 'validation_failed');
  });

  it('needs the fees:quote scope and localises problems', async () => {
    const fixture = await stack.createTenant();
    expectProblem(
      await quote(atmAbroad(world), { token: await fixture.tokenWith(['pricing:write']) }),
      403,
      'insufficient_scope',
    );
    const de = await quote(
      { ...atmAbroad(world), transactionTypeCode: 'TELEPORT' },
      { headers: { 'accept-language': 'de' } },
    );
    expect(de.body.title).toBe('Unbekannte Transaktionsart');
  });
});
