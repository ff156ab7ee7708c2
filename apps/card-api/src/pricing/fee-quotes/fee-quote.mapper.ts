import type Decimal from 'decimal.js';
import type { z } from 'zod';
import { formatAmount, ROUNDING_MODE_NAME } from '../domain/currency';
import type { Quote } from '../domain/fee-engine';
import type { CalculateFeesBody, CalculateFeesResponse } from './fee-quote.schemas';

/** Money leaves as a JSON number with exactly the currency's digits (exact for 15 significant digits). */
const money = (amount: Decimal, currency: string) => Number(formatAmount(amount, currency));
/** Intermediate figures (unrounded tier amounts, converted bounds) keep their full precision. */
const figure = (value: Decimal | null) => (value === null ? null : value.toNumber());
const rate = (value: Decimal | null) => (value === null ? null : value.toFixed());

export function mapFeeQuote(
  body: z.infer<typeof CalculateFeesBody>,
  quote: Quote,
): z.infer<typeof CalculateFeesResponse> {
  const c = quote.currencyCode;
  return {
    postingDate: body.postingDate,
    transactionTypeCode: body.transactionTypeCode,
    transactionAmount: {
      amount: body.transactionAmount.amount,
      currencyCode: body.transactionAmount.currencyCode,
    },
    labels: body.labels,
    accountId: body.accountId,
    cardId: body.cardId ?? null,
    totalPrice: { amount: money(quote.totalPrice, c), currencyCode: c },
    fees: quote.fees.map((f) => ({
      feeTypeCode: f.feeTypeCode,
      description: f.description,
      amount: money(f.amount, c),
      currencyCode: c,
      calculation: {
        kind: f.calculation.kind,
        mode: f.calculation.mode,
        base: f.calculation.base.toNumber(),
        ratePercent: rate(f.calculation.ratePercent),
        fixedAmount: figure(f.calculation.fixedAmount),
        tiers: f.calculation.tiers.map((t) => ({
          tier: t.tier,
          upTo: figure(t.upTo),
          ratePercent: rate(t.ratePercent),
          flatAmount: figure(t.flatAmount),
          portion: t.portion.toNumber(),
          amount: t.amount.toNumber(),
        })),
        calculatedAmount: money(f.calculation.calculatedAmount, c),
        minimum: f.calculation.minimum === null ? null : money(f.calculation.minimum, c),
        maximum: f.calculation.maximum === null ? null : money(f.calculation.maximum, c),
        capApplied: f.calculation.capApplied,
      },
      conversion: f.conversion && { ...f.conversion, rate: f.conversion.rate.toFixed() },
      priceList: f.priceList,
    })),
    priceList: quote.priceList,
    roundingMode: ROUNDING_MODE_NAME,
  };
}
