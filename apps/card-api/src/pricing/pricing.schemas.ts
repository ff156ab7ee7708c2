import Decimal from 'decimal.js';
import { z } from 'zod';
import { isCalendarDate } from './domain/calendar';
import { fitsMinorUnit, isKnownCurrency, minorUnits, ROUNDING_MODE_NAME } from './domain/currency';
import { AccountId, CardId } from '../identifiers.schemas';
import { feeRuleProblems } from './domain/fee-rule-document';

// ---------------------------------------------------------------- building blocks

/** Account and card ids: the cards context's business identifiers, with the demo data as examples. */
export const AccountIdField = AccountId.describe('Technical identifier of the card account').meta({
  example: 'ACC-DEMO-001',
});
export const CardIdField = CardId.describe('Technical identifier of the card').meta({
  example: 'CARD-DEMO-VISA-1',
});

/** Codes of the tenant's catalogs (transaction types, labels, fee types). */
export const CatalogCode = z
  .string()
  .min(1, 'must not be empty')
  .max(40, 'at most 40 characters')
  .regex(/^[A-Z][A-Z0-9_]*$/, 'upper-case letters, digits and _, starting with a letter');

export const CalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date written YYYY-MM-DD')
  .refine(isCalendarDate, 'this date does not exist in the calendar')
  .describe('A calendar date, YYYY-MM-DD');

export const CurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, 'an ISO 4217 alphabetic code, e.g. EUR')
  .refine(isKnownCurrency, 'not an active ISO 4217 currency code')
  .describe('ISO 4217 currency code');

/** Figures of price lists and rates travel as decimal strings: no binary floating point on the way. */
const decimalString = (what: string, example: string) =>
  z
    .string()
    .regex(/^\d{1,12}(\.\d{1,10})?$/, 'a non-negative decimal written as a string, e.g. "12.50"')
    .describe(what)
    .meta({ example });

const MoneyFigure = decimalString('Amount in the rule currency', '2.00');
const Percent = decimalString('Percentage of the amount, e.g. "1.75" for 1.75 %', '1.75').refine(
  (v) => new Decimal(v).lte(100),
  'at most 100 (percent)',
);

function uniqueItems(values: readonly string[], ctx: z.RefinementCtx, what: string) {
  const seen = new Set<string>();
  values.forEach((value, i) => {
    if (seen.has(value)) ctx.addIssue({ code: 'custom', path: [i], message: `duplicate ${what} ${value}` });
    seen.add(value);
  });
}

const codeList = (what: string, min: number) =>
  z
    .array(CatalogCode)
    .min(min)
    .max(50)
    .superRefine((v, ctx) => uniqueItems(v, ctx, what));

// ---------------------------------------------------------------- quote

const QUOTE_REQUEST_EXAMPLE = {
  postingDate: '2026-03-15',
  transactionTypeCode: 'ATM_WITHDRAWAL',
  transactionAmount: { amount: 100.0, currencyCode: 'EUR' },
  labels: ['INTERNATIONAL'],
  accountId: 'ACC-DEMO-001',
  cardId: 'CARD-DEMO-VISA-1',
};

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
  .meta({ id: 'TransactionAmount', example: { amount: 100.0, currencyCode: 'EUR' } });

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
  .meta({ id: 'CalculateFeesRequest', example: QUOTE_REQUEST_EXAMPLE });

const PriceListRef = z
  .object({
    id: z.uuid().describe('Price list id'),
    code: z.string().describe('Price list code'),
    level: z.enum(['CARD', 'ACCOUNT', 'TENANT']).describe('Level the price list was found at'),
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
        mode: z.enum(['VOLUME', 'GRADUATED']).nullable().describe('Tier mode, for TIERED'),
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

export const QUOTE_RESPONSE_EXAMPLE = {
  ...QUOTE_REQUEST_EXAMPLE,
  totalPrice: { amount: 7.76, currencyCode: 'EUR' },
  fees: [
    {
      feeTypeCode: 'ATM_WITHDRAWAL_FEE',
      description: 'Cash withdrawal abroad: 2 % of the amount, at least 5.00 EUR, at most 15.00 EUR',
      amount: 5.0,
      currencyCode: 'EUR',
      calculation: {
        kind: 'PERCENTAGE',
        mode: null,
        base: 100,
        ratePercent: '2',
        fixedAmount: null,
        tiers: [],
        calculatedAmount: 2.0,
        minimum: 5.0,
        maximum: 15.0,
        capApplied: 'MINIMUM',
      },
      conversion: null,
      priceList: { id: '6f1c1a52-5b1e-4e8e-9d0e-1f2a3b4c5d6e', code: 'DEMO-STANDARD-2026', level: 'TENANT' },
    },
    {
      feeTypeCode: 'ATM_OPERATOR_FEE',
      description: 'Surcharge passed on from foreign ATM operators: 3.00 USD',
      amount: 2.76,
      currencyCode: 'EUR',
      calculation: {
        kind: 'FIXED',
        mode: null,
        base: 100,
        ratePercent: null,
        fixedAmount: 2.76,
        tiers: [],
        calculatedAmount: 2.76,
        minimum: null,
        maximum: null,
        capApplied: null,
      },
      conversion: { fromCurrency: 'USD', toCurrency: 'EUR', rate: '0.92', rateValidFrom: '2026-01-01' },
      priceList: { id: '6f1c1a52-5b1e-4e8e-9d0e-1f2a3b4c5d6e', code: 'DEMO-STANDARD-2026', level: 'TENANT' },
    },
  ],
  priceList: { id: '6f1c1a52-5b1e-4e8e-9d0e-1f2a3b4c5d6e', code: 'DEMO-STANDARD-2026', level: 'TENANT' },
  roundingMode: ROUNDING_MODE_NAME,
};

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
  .meta({ id: 'CalculateFeesResponse', example: QUOTE_RESPONSE_EXAMPLE });

// ---------------------------------------------------------------- catalogs

export const TransactionTypeBody = z
  .object({
    name: z.string().trim().min(1).max(200).describe('Name shown to the pricing team'),
    zeroAmountAllowed: z
      .boolean()
      .default(false)
      .describe('Whether the type may be quoted with amount 0 (e.g. balance inquiry)'),
  })
  .strict()
  .meta({
    id: 'TransactionTypeRequest',
    example: { name: 'Cash withdrawal at an ATM', zeroAmountAllowed: false },
  });

export const TransactionTypeResponse = z
  .object({ code: z.string(), name: z.string(), zeroAmountAllowed: z.boolean() })
  .meta({
    id: 'TransactionType',
    example: { code: 'ATM_WITHDRAWAL', name: 'Cash withdrawal at an ATM', zeroAmountAllowed: false },
  });

export const TransactionTypeList = z
  .object({ items: z.array(TransactionTypeResponse) })
  .meta({ id: 'TransactionTypeList', example: { items: [TransactionTypeResponse.meta()?.example] } });

export const LabelBody = z
  .object({ name: z.string().trim().min(1).max(200).describe('What the label means') })
  .strict()
  .meta({ id: 'LabelRequest', example: { name: 'Merchant or ATM outside the issuing country' } });

export const LabelResponse = z.object({ code: z.string(), name: z.string() }).meta({
  id: 'Label',
  example: { code: 'INTERNATIONAL', name: 'Merchant or ATM outside the issuing country' },
});

export const LabelList = z
  .object({ items: z.array(LabelResponse) })
  .meta({ id: 'LabelList', example: { items: [LabelResponse.meta()?.example] } });

// ---------------------------------------------------------------- exchange rates

export const ExchangeRateBody = z
  .object({
    baseCurrency: CurrencyCode,
    quoteCurrency: CurrencyCode,
    validFrom: CalendarDate.describe('The rate holds from this date until the next rate of the pair'),
    rate: decimalString('Units of quoteCurrency for one unit of baseCurrency', '0.92').refine(
      (v) => new Decimal(v).gt(0),
      'must be positive',
    ),
  })
  .strict()
  .refine((v) => v.baseCurrency !== v.quoteCurrency, {
    path: ['quoteCurrency'],
    message: 'must differ from baseCurrency',
  })
  .meta({
    id: 'ExchangeRateRequest',
    example: { baseCurrency: 'USD', quoteCurrency: 'EUR', validFrom: '2026-01-01', rate: '0.92' },
  });

export const ExchangeRateResponse = z
  .object({ baseCurrency: z.string(), quoteCurrency: z.string(), validFrom: z.string(), rate: z.string() })
  .meta({
    id: 'ExchangeRate',
    example: { baseCurrency: 'USD', quoteCurrency: 'EUR', validFrom: '2026-01-01', rate: '0.92' },
  });

export const ExchangeRateList = z
  .object({ items: z.array(ExchangeRateResponse) })
  .meta({ id: 'ExchangeRateList', example: { items: [ExchangeRateResponse.meta()?.example] } });

// ---------------------------------------------------------------- price lists

const Tier = z
  .object({
    upTo: MoneyFigure.nullable().describe(
      'Inclusive upper bound in the rule currency; null for the last tier',
    ),
    ratePercent: Percent.nullable().default(null),
    flatAmount: MoneyFigure.nullable().default(null).describe('Added once when the tier applies'),
  })
  .strict();

const Calculation = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('FIXED'), amount: MoneyFigure }).strict(),
  z.object({ kind: z.literal('PERCENTAGE'), ratePercent: Percent }).strict(),
  z
    .object({
      kind: z.literal('TIERED'),
      mode: z
        .enum(['VOLUME', 'GRADUATED'])
        .describe('VOLUME: the whole amount at the tier it falls in; GRADUATED: each slice at its tier'),
      tiers: z.array(Tier).min(1).max(20),
    })
    .strict(),
]);

export const FeeRuleSchema = z
  .object({
    feeTypeCode: CatalogCode.describe('Fee type; per fee type the first matching rule of the list applies'),
    description: z.string().trim().min(1).max(300),
    transactionTypeCodes: codeList('transaction type', 1).describe('Transaction types the rule prices'),
    labelsAll: codeList('label', 0)
      .default([])
      .describe('The transaction must carry every one of these labels'),
    labelsNone: codeList('label', 0).default([]).describe('... and none of these'),
    currencyCode: CurrencyCode.describe(
      'Currency of the fixed amount, tier bounds and flats, minimum and maximum',
    ),
    calculation: Calculation,
    minimum: MoneyFigure.nullable().default(null).describe('Lowest fee, in the rule currency'),
    maximum: MoneyFigure.nullable().default(null).describe('Highest fee, in the rule currency'),
  })
  .strict()
  .superRefine((rule, ctx) => {
    for (const p of feeRuleProblems(rule))
      ctx.addIssue({
        code: 'custom',
        path: p.field
          .split(/[.[\]]+/)
          .filter(Boolean)
          .map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
        message: p.message,
      });
    if (!isKnownCurrency(rule.currencyCode)) return;
    const figures: Array<[Array<string | number>, string | null]> = [
      [['minimum'], rule.minimum],
      [['maximum'], rule.maximum],
    ];
    const c = rule.calculation;
    if (c.kind === 'FIXED') figures.push([['calculation', 'amount'], c.amount]);
    if (c.kind === 'TIERED')
      c.tiers.forEach((t, i) => figures.push([['calculation', 'tiers', i, 'flatAmount'], t.flatAmount]));
    for (const [path, value] of figures) {
      if (value !== null && !fitsMinorUnit(new Decimal(value), rule.currencyCode)) {
        ctx.addIssue({
          code: 'custom',
          path,
          message: `${rule.currencyCode} has ${minorUnits(rule.currencyCode)} decimal places; the amount has more`,
        });
      }
    }
  })
  .meta({ id: 'FeeRule' });

const PRICE_LIST_EXAMPLE = {
  code: 'GOLD-CARD-2026',
  name: 'Gold card tariff 2026',
  level: 'CARD',
  cardId: 'CARD-DEMO-VISA-1',
  validFrom: '2026-01-01',
  validTo: '2026-12-31',
  rules: [
    {
      feeTypeCode: 'TRANSFER_FEE',
      description: 'Transfer, volume tiers',
      transactionTypeCodes: ['TRANSFER'],
      labelsAll: [],
      labelsNone: [],
      currencyCode: 'EUR',
      calculation: {
        kind: 'TIERED',
        mode: 'VOLUME',
        tiers: [
          { upTo: '500', ratePercent: null, flatAmount: '0.50' },
          { upTo: '5000', ratePercent: '0.2', flatAmount: null },
          { upTo: null, ratePercent: '0.1', flatAmount: '1.00' },
        ],
      },
      minimum: null,
      maximum: '25.00',
    },
    {
      feeTypeCode: 'ATM_WITHDRAWAL_FEE',
      description: 'Cash withdrawal abroad: 1 %, at least 2.50 EUR',
      transactionTypeCodes: ['ATM_WITHDRAWAL'],
      labelsAll: ['INTERNATIONAL'],
      labelsNone: [],
      currencyCode: 'EUR',
      calculation: { kind: 'PERCENTAGE', ratePercent: '1' },
      minimum: '2.50',
      maximum: null,
    },
  ],
};

export const PriceListBody = z
  .object({
    code: z
      .string()
      .regex(/^[A-Z0-9][A-Z0-9_.-]{0,63}$/, 'upper-case letters, digits, _ . - (1 to 64)')
      .describe('Unique per tenant'),
    name: z.string().trim().min(1).max(200),
    level: z
      .enum(['TENANT', 'ACCOUNT', 'CARD'])
      .describe('TENANT default, or for one account, or for one card'),
    accountId: AccountIdField.optional().describe('Required for level ACCOUNT, refused otherwise'),
    cardId: CardIdField.optional().describe('Required for level CARD, refused otherwise'),
    validFrom: CalendarDate.describe('First day the list applies (inclusive)'),
    validTo: CalendarDate.nullable()
      .default(null)
      .describe('Last day the list applies (inclusive); null = open-ended'),
    rules: z.array(FeeRuleSchema).max(200).describe('Fee rules in priority order'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.level === 'ACCOUNT' && !v.accountId)
      ctx.addIssue({ code: 'custom', path: ['accountId'], message: 'required for level ACCOUNT' });
    if (v.level === 'CARD' && !v.cardId)
      ctx.addIssue({ code: 'custom', path: ['cardId'], message: 'required for level CARD' });
    if (v.level !== 'ACCOUNT' && v.accountId)
      ctx.addIssue({ code: 'custom', path: ['accountId'], message: `not allowed for level ${v.level}` });
    if (v.level !== 'CARD' && v.cardId)
      ctx.addIssue({ code: 'custom', path: ['cardId'], message: `not allowed for level ${v.level}` });
    if (v.validTo !== null && v.validTo < v.validFrom)
      ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'must not be before validFrom' });
  })
  .meta({ id: 'PriceListRequest', example: PRICE_LIST_EXAMPLE });

export const PriceListResponse = z
  .object({
    id: z.uuid(),
    code: z.string(),
    name: z.string(),
    level: z.enum(['TENANT', 'ACCOUNT', 'CARD']),
    accountId: z.string().nullable(),
    cardId: z.string().nullable(),
    validFrom: z.string(),
    validTo: z.string().nullable(),
    rules: z.array(FeeRuleSchema),
    version: z.number().int().describe('Increases with every change'),
    updatedAt: z.iso.datetime(),
  })
  .meta({
    id: 'PriceList',
    example: {
      id: '0b9c7a7e-2f55-4d0c-8d1f-3c1b7e0d9a11',
      ...PRICE_LIST_EXAMPLE,
      accountId: null,
      version: 1,
      updatedAt: '2026-01-02T08:00:00.000Z',
    },
  });

export const PriceListListResponse = z
  .object({ items: z.array(PriceListResponse) })
  .meta({ id: 'PriceListList', example: { items: [PriceListResponse.meta()?.example] } });

export const PriceListQuery = z
  .object({
    level: z.enum(['TENANT', 'ACCOUNT', 'CARD']).optional(),
    accountId: AccountIdField.optional(),
    cardId: CardIdField.optional(),
  })
  .strict()
  .meta({ id: 'PriceListQuery' });

export const PriceListId = z.uuid('a price list id (uuid)').describe('Price list id');
