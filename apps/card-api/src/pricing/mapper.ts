import type Decimal from 'decimal.js';
import type { z } from 'zod';
import { formatAmount, ROUNDING_MODE_NAME } from './domain/currency';
import type { Quote } from './domain/fee-engine';
import type { ExchangeRateEntity } from './entities/exchange-rate.entity';
import type { LabelEntity } from './entities/label.entity';
import type { PriceListEntity } from './entities/price-list.entity';
import type { TransactionTypeEntity } from './entities/transaction-type.entity';
import type { CalculateFeesBody, CalculateFeesResponse, PriceListResponse } from './pricing.schemas';

/** Money leaves as a JSON number with exactly the currency's digits (exact for 15 significant digits). */
const money = (amount: Decimal, currency: string) => Number(formatAmount(amount, currency));
/** Intermediate figures (unrounded tier amounts, converted bounds) keep their full precision. */
const figure = (value: Decimal | null) => (value === null ? null : value.toNumber());
const rate = (value: Decimal | null) => (value === null ? null : value.toFixed());

export function toQuoteResponse(
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

export function toPriceListResponse(e: PriceListEntity): z.infer<typeof PriceListResponse> {
  return {
    id: e.id,
    code: e.code,
    name: e.name,
    level: e.level,
    accountId: e.accountId,
    cardId: e.cardId,
    validFrom: e.validFrom,
    validTo: e.validTo,
    rules: e.rules,
    version: e.version,
    updatedAt: e.updatedAt.toISOString(),
  };
}

export const toTransactionTypeResponse = (
  e: Pick<TransactionTypeEntity, 'code' | 'name' | 'zeroAmountAllowed'>,
) => ({
  code: e.code,
  name: e.name,
  zeroAmountAllowed: e.zeroAmountAllowed,
});
export const toLabelResponse = (e: Pick<LabelEntity, 'code' | 'name'>) => ({ code: e.code, name: e.name });
/** numeric comes back padded to its scale ("0.9200000000"); answer it as the pricing team wrote it. */
export const toExchangeRateResponse = (
  e: Pick<ExchangeRateEntity, 'baseCurrency' | 'quoteCurrency' | 'validFrom' | 'rate'>,
) => ({
  baseCurrency: e.baseCurrency,
  quoteCurrency: e.quoteCurrency,
  validFrom: e.validFrom,
  rate: trimZeros(e.rate),
});

function trimZeros(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}
