import Decimal from 'decimal.js';
import { formatAmount } from './currency';
import { priceTiers, QuoteError, quoteFees, rateOn, resolvePriceList, ruleMatches } from './fee-engine';
import { toFeeRule, toPriceList } from './fee-rule-document';
import type { ExchangeRate, PriceList, Transaction } from './pricing-model';
import { PREMIUM_CARD_RULES, STANDARD_EXCHANGE_RATES, STANDARD_PRICE_LIST_RULES } from './standard-catalog';

const d = (v: string | number) => new Decimal(v);
const rates: ExchangeRate[] = STANDARD_EXCHANGE_RATES.map((r) => ({ ...r, rate: d(r.rate) }));
const standard: PriceList = toPriceList({
  id: 'pl-std',
  code: 'STANDARD-2026',
  level: 'TENANT',
  accountId: null,
  cardId: null,
  validFrom: '2026-01-01',
  validTo: null,
  rules: STANDARD_PRICE_LIST_RULES,
});
const premium: PriceList = toPriceList({
  id: 'pl-premium',
  code: 'PREMIUM-CARD',
  level: 'CARD',
  accountId: null,
  cardId: 'CARD-1',
  validFrom: '2026-01-01',
  validTo: null,
  rules: PREMIUM_CARD_RULES,
});

const tx = (over: Partial<Omit<Transaction, 'amount'>> & { amount: string | number }): Transaction => ({
  postingDate: '2026-03-15',
  transactionTypeCode: 'POS_PURCHASE',
  currencyCode: 'EUR',
  labels: [],
  accountId: 'ACC-1',
  cardId: 'CARD-2',
  ...over,
  amount: d(over.amount),
});

/** fee type -> amount as text, for comparing with the worked examples of docs/fees.md. */
const summary = (t: Transaction, lists: PriceList[] = [standard]) => {
  const q = quoteFees(t, lists, rates);
  return {
    total: formatAmount(q.totalPrice, q.currencyCode),
    fees: Object.fromEntries(q.fees.map((f) => [f.feeTypeCode, formatAmount(f.amount, f.currencyCode)])),
  };
};

describe('worked examples of docs/fees.md (standard tariff)', () => {
  it('1. domestic ATM withdrawal at another bank: fixed 2.00 EUR', () => {
    expect(
      summary(tx({ transactionTypeCode: 'ATM_WITHDRAWAL', amount: '200.00', labels: ['DOMESTIC'] })),
    ).toEqual({
      total: '2.00',
      fees: { ATM_WITHDRAWAL_FEE: '2.00' },
    });
  });

  it('2. own-network ATM withdrawal: no rule matches, the quote is free', () => {
    expect(
      summary(
        tx({ transactionTypeCode: 'ATM_WITHDRAWAL', amount: '200.00', labels: ['DOMESTIC', 'OWN_NETWORK'] }),
      ),
    ).toEqual({
      total: '0.00',
      fees: {},
    });
  });

  it('3. ATM abroad, 100.00 EUR: 2 % = 2.00 raised to the 5.00 minimum, plus 3.00 USD at 0.92 = 2.76', () => {
    const q = quoteFees(
      tx({ transactionTypeCode: 'ATM_WITHDRAWAL', amount: '100.00', labels: ['INTERNATIONAL'] }),
      [standard],
      rates,
    );
    expect(formatAmount(q.totalPrice, 'EUR')).toBe('7.76');
    const [atm, operator] = q.fees;
    expect(atm.calculation).toMatchObject({ kind: 'PERCENTAGE', capApplied: 'MINIMUM' });
    expect(atm.calculation.calculatedAmount.toFixed(2)).toBe('2.00');
    expect(atm.amount.toFixed(2)).toBe('5.00');
    expect(operator.amount.toFixed(2)).toBe('2.76');
    expect(operator.conversion).toEqual({
      fromCurrency: 'USD',
      toCurrency: 'EUR',
      rate: d('0.92'),
      rateValidFrom: '2026-01-01',
    });
  });

  it('4. ATM abroad, 1,000.00 EUR: 2 % = 20.00 capped at the 15.00 maximum', () => {
    const q = quoteFees(
      tx({ transactionTypeCode: 'ATM_WITHDRAWAL', amount: '1000.00', labels: ['INTERNATIONAL'] }),
      [standard],
      rates,
    );
    expect(q.fees[0].calculation.capApplied).toBe('MAXIMUM');
    expect(
      summary(tx({ transactionTypeCode: 'ATM_WITHDRAWAL', amount: '1000.00', labels: ['INTERNATIONAL'] })),
    ).toEqual({
      total: '17.76',
      fees: { ATM_WITHDRAWAL_FEE: '15.00', ATM_OPERATOR_FEE: '2.76' },
    });
  });

  it('5. transfer of 12,500.00 EUR, graduated: 5.00 + 22.50 + 2.50 = 30.00', () => {
    const q = quoteFees(tx({ transactionTypeCode: 'TRANSFER', amount: '12500.00' }), [standard], rates);
    expect(q.fees[0].calculation.tiers.map((t) => [t.tier, t.portion.toFixed(), t.amount.toFixed()])).toEqual(
      [
        [1, '1000', '5'],
        [2, '9000', '22.5'],
        [3, '2500', '2.5'],
      ],
    );
    expect(formatAmount(q.totalPrice, 'EUR')).toBe('30.00');
  });

  it('6. transfer of 60,000.00 EUR: graduated 77.50 capped at 50.00', () => {
    expect(summary(tx({ transactionTypeCode: 'TRANSFER', amount: '60000.00' }))).toEqual({
      total: '50.00',
      fees: { TRANSFER_FEE: '50.00' },
    });
  });

  it('7. e-commerce purchase of 49.99 USD with conversion: 1.75 % = 0.874825, rounded to 0.87 USD', () => {
    expect(
      summary(
        tx({
          transactionTypeCode: 'ECOMMERCE_PURCHASE',
          amount: '49.99',
          currencyCode: 'USD',
          labels: ['INTERNATIONAL', 'CURRENCY_CONVERSION'],
        }),
      ),
    ).toEqual({ total: '0.87', fees: { FX_MARKUP: '0.87' } });
  });

  it('8. ATM abroad, 30,000 JPY (no decimals): minimum 5 EUR = 812 JPY, 3 USD = 449 JPY (448.5 half up), mark-up 525', () => {
    const q = quoteFees(
      tx({
        transactionTypeCode: 'ATM_WITHDRAWAL',
        amount: '30000',
        currencyCode: 'JPY',
        labels: ['INTERNATIONAL', 'CURRENCY_CONVERSION'],
      }),
      [standard],
      rates,
    );
    expect(q.fees.map((f) => [f.feeTypeCode, f.amount.toFixed()])).toEqual([
      ['ATM_WITHDRAWAL_FEE', '812'],
      ['ATM_OPERATOR_FEE', '449'],
      ['FX_MARKUP', '525'],
    ]);
    expect(q.fees[0].calculation).toMatchObject({
      capApplied: 'MINIMUM',
      minimum: d('812'),
      maximum: d('2435'),
    });
    expect(q.fees[0].conversion?.rate).toEqual(d('162.35'));
    expect(q.totalPrice.toFixed()).toBe('1786');
  });

  it('9. POS purchase of 12.345 BHD (three decimals): mark-up 0.2160375 rounds to 0.216', () => {
    expect(summary(tx({ amount: '12.345', currencyCode: 'BHD', labels: ['CURRENCY_CONVERSION'] }))).toEqual({
      total: '0.216',
      fees: { FX_MARKUP: '0.216' },
    });
  });

  it('10. balance inquiry abroad with amount zero: fixed 1.00 EUR', () => {
    expect(
      summary(tx({ transactionTypeCode: 'BALANCE_INQUIRY', amount: '0', labels: ['INTERNATIONAL'] })),
    ).toEqual({
      total: '1.00',
      fees: { BALANCE_INQUIRY_FEE: '1.00' },
    });
  });

  it('11. ATM abroad in GBP: no USD->GBP rate, so the quote is refused', () => {
    const run = () =>
      quoteFees(
        tx({
          transactionTypeCode: 'ATM_WITHDRAWAL',
          amount: '100.00',
          currencyCode: 'GBP',
          labels: ['INTERNATIONAL'],
        }),
        [standard],
        rates,
      );
    expect(run).toThrow(QuoteError);
    expect(run).toThrow(
      expect.objectContaining({
        code: 'exchange_rate_missing',
        params: expect.objectContaining({ from: 'EUR', to: 'GBP', date: '2026-03-15' }),
      }),
    );
  });

  it('12. premium card, volume tiers: 400 -> flat 0.50; 2,500 -> 5.00 (graduated would be 8.75); 8,000 -> 9.00', () => {
    const lists = [standard, premium];
    const card = { transactionTypeCode: 'TRANSFER', cardId: 'CARD-1' };
    expect(summary(tx({ ...card, amount: '400.00' }), lists).total).toBe('0.50');
    expect(summary(tx({ ...card, amount: '2500.00' }), lists).total).toBe('5.00');
    expect(summary(tx({ transactionTypeCode: 'TRANSFER', amount: '2500.00' }), lists).total).toBe('8.75');
    expect(summary(tx({ ...card, amount: '8000.00' }), lists).total).toBe('9.00');
  });
});

describe('tiers', () => {
  const tiers = toFeeRule(PREMIUM_CARD_RULES[0]).calculation;
  if (tiers.kind !== 'TIERED') throw new Error('fixture');

  it('volume puts a base on a bound into the lower tier', () => {
    const [sut] = priceTiers('VOLUME', tiers.tiers, d(500));
    expect(sut).toMatchObject({ tier: 1, amount: d('0.50') });
    expect(priceTiers('VOLUME', tiers.tiers, d('500.01'))[0].tier).toBe(2);
  });

  it('graduated adds a flat amount once for every tier entered', () => {
    const sut = priceTiers('GRADUATED', tiers.tiers, d(6000));
    expect(sut.map((t) => [t.portion.toFixed(), t.amount.toFixed()])).toEqual([
      ['500', '0.5'],
      ['4500', '9'],
      ['1000', '2'],
    ]);
  });

  it('graduated prices a zero base in the first tier only', () => {
    expect(priceTiers('GRADUATED', tiers.tiers, d(0)).map((t) => t.amount.toFixed())).toEqual(['0.5']);
  });
});

describe('rule matching', () => {
  const sut = toFeeRule(STANDARD_PRICE_LIST_RULES[0]);
  it('needs the transaction type and every required label', () => {
    expect(
      ruleMatches(sut, { transactionTypeCode: 'ATM_WITHDRAWAL', labels: ['INTERNATIONAL', 'CONTACTLESS'] }),
    ).toBe(true);
    expect(ruleMatches(sut, { transactionTypeCode: 'ATM_WITHDRAWAL', labels: ['DOMESTIC'] })).toBe(false);
    expect(ruleMatches(sut, { transactionTypeCode: 'POS_PURCHASE', labels: ['INTERNATIONAL'] })).toBe(false);
  });
  it('is excluded by any excluded label', () => {
    const domestic = toFeeRule(STANDARD_PRICE_LIST_RULES[1]);
    expect(ruleMatches(domestic, { transactionTypeCode: 'ATM_WITHDRAWAL', labels: [] })).toBe(true);
    expect(ruleMatches(domestic, { transactionTypeCode: 'ATM_WITHDRAWAL', labels: ['OWN_NETWORK'] })).toBe(
      false,
    );
  });
});

describe('price list resolution', () => {
  const list = (
    id: string,
    level: PriceList['level'],
    owner: Partial<PriceList>,
    validFrom: string,
    validTo: string | null,
  ): PriceList => ({
    id,
    code: id,
    level,
    accountId: null,
    cardId: null,
    validFrom,
    validTo,
    rules: [],
    ...owner,
  });
  const lists = [
    list('tenant-2025', 'TENANT', {}, '2025-01-01', '2025-12-31'),
    list('tenant-2026', 'TENANT', {}, '2026-01-01', null),
    list('account', 'ACCOUNT', { accountId: 'ACC-1' }, '2026-01-01', '2026-06-30'),
    list('card', 'CARD', { cardId: 'CARD-1' }, '2026-03-01', '2026-03-31'),
  ];
  const at = (postingDate: string, cardId: string | null = 'CARD-1', accountId = 'ACC-1') =>
    resolvePriceList(lists, { postingDate, cardId, accountId })?.id ?? null;

  it('takes the card list, then the account list, then the tenant default, each valid on the posting date', () => {
    expect(at('2026-03-15')).toBe('card');
    expect(at('2026-04-01')).toBe('account');
    expect(at('2026-03-15', 'CARD-2')).toBe('account');
    expect(at('2026-07-01')).toBe('tenant-2026');
    expect(at('2026-03-15', null, 'ACC-2')).toBe('tenant-2026');
    expect(at('2025-06-01', null, 'ACC-2')).toBe('tenant-2025');
  });

  it('treats both ends of a validity period as inclusive and finds nothing before the first list', () => {
    expect(at('2026-03-31')).toBe('card');
    expect(at('2026-06-30', null)).toBe('account');
    expect(at('2024-12-31', null, 'ACC-2')).toBeNull();
    expect(() => quoteFees(tx({ amount: 1, postingDate: '2024-12-31' }), lists, rates)).toThrow(QuoteError);
  });
});

describe('exchange rates', () => {
  it('uses the latest rate valid on the posting date', () => {
    const sut = [
      { baseCurrency: 'USD', quoteCurrency: 'EUR', rate: d('0.90'), validFrom: '2026-01-01' },
      { baseCurrency: 'USD', quoteCurrency: 'EUR', rate: d('0.95'), validFrom: '2026-03-01' },
    ];
    expect(rateOn(sut, 'USD', 'EUR', '2026-02-28')?.rate).toEqual(d('0.90'));
    expect(rateOn(sut, 'USD', 'EUR', '2026-03-01')?.rate).toEqual(d('0.95'));
    expect(rateOn(sut, 'USD', 'EUR', '2025-12-31')).toBeNull();
    expect(rateOn(sut, 'EUR', 'USD', '2026-03-01')).toBeNull();
  });
});
