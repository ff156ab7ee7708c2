import Decimal from 'decimal.js';
import { z } from 'zod';
import { fitsMinorUnit, isKnownCurrency, minorUnits, ROUNDING_MODE_NAME } from '../domain/currency';
import { PRICE_LIST_LEVELS, TIER_MODES } from '../domain/pricing-model';
import {
  AccountIdField,
  CalendarDate,
  CardIdField,
  CatalogCode,
  codeList,
  CurrencyCode,
} from '../common.schemas';
import {
  FEE_QUOTE_REQUEST_EXAMPLE,
  FEE_QUOTE_RESPONSE_EXAMPLE,
  TRANSACTION_AMOUNT_EXAMPLE,
} from './fee-quote.examples';

/** Largest amount quoted: 15 significant digits survive JSON numbers exactly. */
const MAX_AMOUNT = 999_999_999_999;

export const TransactionAmount = z
  .object({
    amount: z
      .number()
      .min(0, 'must not be negative')
      .max(MAX_AMOUNT, `at most ${MAX_AMOUNT}`)
      .describe(
        'Transaction amount in its currency, at most the currency’s minor-unit digits (JPY 0, EUR 2, BHD 3)',
      ),
    currencyCode: CurrencyCode,
  })
  .strict()
  .superRefine((value, ctx) => {
    if (!Number.isFinite(value.amount) || !isKnownCurrency(value.currencyCode)) return;
    if (!fitsMinorUnit(new Decimal(value.amount), value.currencyCode)) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: `${value.currencyCode} has ${minorUnits(value.currencyCode)} decimal places; the amount has more`,
      });
    }
  })
  .meta({ id: 'TransactionAmount', example: TRANSACTION_AMOUNT_EXAMPLE });

export const CalculateFeesBody = z
  .object({
    postingDate: CalendarDate.describe(
      'Date the transaction is posted (YYYY-MM-DD); selects price lists and exchange rates',
    ),
    transactionTypeCode: CatalogCode.describe(
      'Transaction type from the tenant catalog, e.g. POS_PURCHASE, ATM_WITHDRAWAL',
    ),
    transactionAmount: TransactionAmount,
    labels: codeList('label', 0)
      .default([])
      .describe(
        'Labels from the tenant catalog, e.g. INTERNATIONAL, CONTACTLESS; they select the fee rules that apply',
      ),
    accountId: AccountIdField,
    cardId: CardIdField.optional().describe(
      'Card the transaction is made with; required for accounts that carry debit, prepaid or gift cards (CURRENT, PREPAID)',
    ),
  })
  .strict()
  .meta({ id: 'CalculateFeesRequest', example: FEE_QUOTE_REQUEST_EXAMPLE });

const PriceListRef = z
  .object({
    id: z.uuid().describe('Price list id'),
    code: z.string().describe('Price list code'),
    level: z.enum(PRICE_LIST_LEVELS).describe('Level the price list was found at'),
  })
  .meta({ id: 'PriceListRef' });

const FeeBreakdown = z
  .object({
    feeTypeCode: z.string().describe('Fee type, e.g. ATM_WITHDRAWAL_FEE'),
    description: z.string().describe('What the fee is, from the fee rule'),
    amount: z.number().describe('The fee, rounded to the minor unit of the currency'),
    currencyCode: z.string().describe('Currency of the fee: always the transaction currency'),
    calculation: z
      .object({
        kind: z.enum(['FIXED', 'PERCENTAGE', 'TIERED']),
        mode: z.enum(TIER_MODES).nullable().describe('Tier mode, for TIERED'),
        base: z.number().describe('Amount the fee was calculated on (the transaction amount)'),
        ratePercent: z.string().nullable().describe('Rate of a PERCENTAGE fee'),
        fixedAmount: z
          .number()
          .nullable()
          .describe('Fixed amount of a FIXED fee, in the transaction currency (unrounded)'),
        tiers: z
          .array(
            z.object({
              tier: z.number().int().describe('1-based position of the tier'),
              upTo: z
                .number()
                .nullable()
                .describe('Upper bound in the transaction currency; null = unbounded'),
              ratePercent: z.string().nullable(),
              flatAmount: z.number().nullable(),
              portion: z.number().describe('Part of the base priced by this tier (all of it in VOLUME mode)'),
              amount: z.number().describe('Fee of this tier before rounding'),
            }),
          )
          .describe('Tiers applied, for TIERED'),
        calculatedAmount: z.number().describe('Fee before minimum/maximum, rounded'),
        minimum: z.number().nullable(),
        maximum: z.number().nullable(),
        capApplied: z.enum(['MINIMUM', 'MAXIMUM']).nullable().describe('Which cap changed the fee, if any'),
      })
      .describe('How the fee was computed'),
    conversion: z
      .object({
        fromCurrency: z.string(),
        toCurrency: z.string(),
        rate: z.string().describe('Units of toCurrency per unit of fromCurrency'),
        rateValidFrom: z.string().describe('Date the rate holds from'),
      })
      .nullable()
      .describe('Exchange rate used when the rule is priced in another currency'),
    priceList: PriceListRef,
  })
  .meta({ id: 'FeeBreakdown' });

export const CalculateFeesResponse = z
  .object({
    postingDate: z.string(),
    transactionTypeCode: z.string(),
    transactionAmount: z.object({ amount: z.number(), currencyCode: z.string() }),
    labels: z.array(z.string()),
    accountId: z.string(),
    cardId: z.string().nullable(),
    totalPrice: z
      .object({ amount: z.number(), currencyCode: z.string() })
      .describe('Sum of the fees, in the transaction currency'),
    fees: z
      .array(FeeBreakdown)
      .describe('One entry per fee type that applies; empty when the transaction is free'),
    priceList: PriceListRef.describe('The price list that applied'),
    roundingMode: z.literal(ROUNDING_MODE_NAME).describe('How every amount was rounded to its minor unit'),
  })
  .meta({ id: 'CalculateFeesResponse', example: FEE_QUOTE_RESPONSE_EXAMPLE });
