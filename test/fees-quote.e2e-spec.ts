import {
  PREMIUM_CARD_RULES,
  STANDARD_PRICE_LIST_RULES,
} from '../apps/card-api/src/pricing/domain/standard-catalog';
import { atmAbroad, FeeWorld, QuoteFees, startCardApiWithFeeWorld } from './support/builders/fee-world';
import { RunningApp, TestStack } from './support/stack';

describe('fee quotation (POST /api/v1/transactions/calculate-fees): prices', () => {
  let stack: TestStack, sut: RunningApp, token: string, world: FeeWorld, quote: QuoteFees;
  beforeAll(async () => ({ stack, sut, token, world, quote } = await startCardApiWithFeeWorld()));
  afterAll(() => stack.close());

  it('quotes worked example 3 of docs/fees.md with the full breakdown and echoes the request', async () => {
    const r = await quote(atmAbroad(world));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ...atmAbroad(world),
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
      ...atmAbroad(world),
      transactionAmount: { amount: 30000, currencyCode: 'JPY' },
      labels: ['INTERNATIONAL', 'CURRENCY_CONVERSION'],
    });
    expect(jpy.body.totalPrice).toEqual({ amount: 1786, currencyCode: 'JPY' });
    const bhd = await quote({
      ...atmAbroad(world),
      transactionTypeCode: 'POS_PURCHASE',
      transactionAmount: { amount: 12.345, currencyCode: 'BHD' },
      labels: ['CURRENCY_CONVERSION'],
    });
    expect(bhd.body.totalPrice).toEqual({ amount: 0.216, currencyCode: 'BHD' });
    const free = await quote({ ...atmAbroad(world), labels: ['DOMESTIC', 'OWN_NETWORK'] });
    expect(free.body).toMatchObject({ totalPrice: { amount: 0, currencyCode: 'EUR' }, fees: [] });
  });

  it('resolves card, then account, then tenant price lists, each by validity on the posting date', async () => {
    const transfer = {
      ...atmAbroad(world),
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
    const body = { ...atmAbroad(world), postingDate: '2027-01-10', labels: ['DOMESTIC'] };
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
