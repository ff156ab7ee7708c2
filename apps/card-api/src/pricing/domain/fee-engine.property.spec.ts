import Decimal from 'decimal.js';
import fc from 'fast-check';
import { fitsMinorUnit } from './currency';
import { priceRule, priceTiers, quoteFees } from './fee-engine';
import type { Calculation, ExchangeRate, FeeRule, PriceList, Tier, Transaction } from './pricing-model';

const CURRENCIES = ['EUR', 'JPY', 'BHD', 'USD'] as const;
const MINOR: Record<string, number> = { EUR: 2, JPY: 0, BHD: 3, USD: 2 };

/** Decimals with up to `places` digits after the point, from integers (no binary floating point). */
const decimal = (max: number, places: number) =>
  fc.integer({ min: 0, max: max * 10 ** places }).map((n) => new Decimal(n).div(10 ** places));

const amountIn = (currency: string) => decimal(1_000_000, MINOR[currency]);

const tiers: fc.Arbitrary<Tier[]> = fc
  .uniqueArray(fc.integer({ min: 1, max: 100_000 }), { minLength: 0, maxLength: 4 })
  .chain((bounds) => {
    const sorted = [...bounds].sort((a, b) => a - b).map((b) => new Decimal(b));
    return fc.tuple(
      ...[...sorted, null].map((upTo) =>
        fc
          .record({
            rate: fc.option(decimal(10, 3), { nil: null }),
            flat: fc.option(decimal(20, 2), { nil: null }),
          })
          .map(({ rate, flat }) => ({
            upTo,
            ratePercent: rate === null && flat === null ? new Decimal(1) : rate,
            flatAmount: flat,
          })),
      ),
    );
  });

const calculation: fc.Arbitrary<Calculation> = fc.oneof(
  decimal(50, 2).map((amount) => ({ kind: 'FIXED' as const, amount })),
  decimal(10, 4).map((ratePercent) => ({ kind: 'PERCENTAGE' as const, ratePercent })),
  fc
    .tuple(fc.constantFrom('VOLUME' as const, 'GRADUATED' as const), tiers)
    .map(([mode, t]) => ({ kind: 'TIERED' as const, mode, tiers: t })),
);

const caps = fc
  .tuple(fc.option(decimal(20, 2), { nil: null }), fc.option(decimal(100, 2), { nil: null }))
  .map(([a, b]) => (a !== null && b !== null && a.gt(b) ? [b, a] : [a, b]));

const rule: fc.Arbitrary<FeeRule> = fc
  .record({
    feeTypeCode: fc.constantFrom('A', 'B', 'C', 'D'),
    calculation,
    caps,
    currencyCode: fc.constantFrom(...CURRENCIES),
  })
  .map(({ feeTypeCode, calculation: c, caps: [minimum, maximum], currencyCode }) => ({
    feeTypeCode,
    description: feeTypeCode,
    transactionTypeCodes: ['POS_PURCHASE'],
    labelsAll: [],
    labelsNone: [],
    currencyCode,
    calculation: c,
    minimum,
    maximum,
  }));

/** A rate for every pair so conversion never fails here (missing rates are tested by example). */
const rates: ExchangeRate[] = CURRENCIES.flatMap((from) =>
  CURRENCIES.filter((to) => to !== from).map((to) => ({
    baseCurrency: from,
    quoteCurrency: to,
    rate: new Decimal('1.2345'),
    validFrom: '2000-01-01',
  })),
);

const transaction = fc.constantFrom(...CURRENCIES).chain((currencyCode) =>
  amountIn(currencyCode).map((amount): Transaction => ({
    postingDate: '2026-03-15',
    transactionTypeCode: 'POS_PURCHASE',
    amount,
    currencyCode,
    labels: [],
    accountId: 'A',
    cardId: null,
  })),
);

const listOf = (rules: FeeRule[]): PriceList => ({
  id: 'p',
  code: 'P',
  level: 'TENANT',
  accountId: null,
  cardId: null,
  validFrom: '2000-01-01',
  validTo: null,
  rules,
});

describe('fee engine invariants', () => {
  it('the total is the sum of the fees, and everything is on the minor unit of the transaction currency', () => {
    fc.assert(
      fc.property(transaction, fc.array(rule, { maxLength: 6 }), (tx, rules) => {
        const sut = quoteFees(tx, [listOf(rules)], rates);
        const sum = sut.fees.reduce((s, f) => s.add(f.amount), new Decimal(0));
        expect(sut.totalPrice.eq(sum)).toBe(true);
        expect(fitsMinorUnit(sut.totalPrice, tx.currencyCode)).toBe(true);
        for (const fee of sut.fees) {
          expect(fee.currencyCode).toBe(tx.currencyCode);
          expect(fitsMinorUnit(fee.amount, tx.currencyCode)).toBe(true);
          expect(fee.amount.gte(0)).toBe(true);
        }
        expect(new Set(sut.fees.map((f) => f.feeTypeCode)).size).toBe(sut.fees.length);
      }),
    );
  });

  it('a fee never falls below its minimum nor exceeds its maximum', () => {
    fc.assert(
      fc.property(transaction, rule, (tx, r) => {
        const sut = priceRule(r, tx, rates, { id: 'p', code: 'P', level: 'TENANT' });
        const { minimum, maximum } = sut.calculation;
        expect(minimum === null || sut.amount.gte(minimum)).toBe(true);
        expect(maximum === null || sut.amount.lte(maximum)).toBe(true);
        // An uncapped fee is exactly what the calculation gave.
        expect(sut.calculation.capApplied !== null || sut.amount.eq(sut.calculation.calculatedAmount)).toBe(
          true,
        );
      }),
    );
  });

  it('volume and graduated agree when there is a single tier', () => {
    fc.assert(
      fc.property(
        decimal(1_000_000, 2),
        fc.option(decimal(10, 3), { nil: null }),
        decimal(20, 2),
        (base, rate, flat) => {
          const single: Tier[] = [{ upTo: null, ratePercent: rate, flatAmount: flat }];
          const [volume] = priceTiers('VOLUME', single, base);
          const graduated = priceTiers('GRADUATED', single, base);
          expect(graduated).toHaveLength(1);
          expect(volume.amount.eq(graduated[0].amount)).toBe(true);
        },
      ),
    );
  });

  it('graduated slices add up to the base and never overlap', () => {
    fc.assert(
      fc.property(tiers, decimal(200_000, 2), (t, base) => {
        const sut = priceTiers('GRADUATED', t, base);
        const covered = sut.reduce((s, a) => s.add(a.portion), new Decimal(0));
        expect(covered.eq(base)).toBe(true);
        expect(sut.every((a) => a.portion.gte(0))).toBe(true);
      }),
    );
  });

  it('with rates only (no flats), a graduated fee never exceeds the volume fee for ascending rates, and both grow with the amount', () => {
    fc.assert(
      fc.property(
        fc.array(decimal(5, 3), { minLength: 3, maxLength: 3 }),
        decimal(50_000, 2),
        decimal(50_000, 2),
        (ratesPct, a, b) => {
          const ascending = [...ratesPct].sort((x, y) => x.comparedTo(y));
          const t: Tier[] = [
            { upTo: new Decimal(1000), ratePercent: ascending[0], flatAmount: null },
            { upTo: new Decimal(10000), ratePercent: ascending[1], flatAmount: null },
            { upTo: null, ratePercent: ascending[2], flatAmount: null },
          ];
          const total = (mode: 'VOLUME' | 'GRADUATED', base: Decimal) =>
            priceTiers(mode, t, base).reduce((s, x) => s.add(x.amount), new Decimal(0));
          expect(total('GRADUATED', a).lte(total('VOLUME', a))).toBe(true);
          const [low, high] = a.lte(b) ? [a, b] : [b, a];
          expect(total('GRADUATED', low).lte(total('GRADUATED', high))).toBe(true);
        },
      ),
    );
  });
});
