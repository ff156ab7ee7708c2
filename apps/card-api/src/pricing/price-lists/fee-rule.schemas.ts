import Decimal from 'decimal.js';
import { z } from 'zod';
import { freeText } from '@fincore/platform';
import { fitsMinorUnit, isKnownCurrency, minorUnits } from '../domain/currency';
import { feeRuleProblems } from '../domain/fee-rule-document';
import { TIER_MODES } from '../domain/pricing-model';
import { CatalogCode, codeList, CurrencyCode, decimalFigure } from '../common.schemas';

const MoneyFigure = decimalFigure('Amount in the rule currency', '2.00');
const Percent = decimalFigure('Percentage of the amount, e.g. "1.75" for 1.75 %', '1.75').refine(
  (v) => new Decimal(v).lte(100),
  'at most 100 (percent)',
);

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
        .enum(TIER_MODES)
        .describe('VOLUME: the whole amount at the tier it falls in; GRADUATED: each slice at its tier'),
      tiers: z.array(Tier).min(1).max(20),
    })
    .strict(),
]);

/** One fee rule of a price list, as the API takes and answers it. */
export const FeeRuleSchema = z
  .object({
    feeTypeCode: CatalogCode.describe('Fee type; per fee type the first matching rule of the list applies'),
    description: freeText({ max: 300 }).describe('What the fee is; shown in quotes'),
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
