import Decimal from 'decimal.js';
import type { Calculation, FeeRule, PriceListLevel, TierMode } from './pricing-model';

/**
 * A fee rule as the API takes it and the database stores it (decimal strings, never binary
 * floating point); toFeeRule turns it into the engine's model.
 */
export interface FeeRuleDocument {
  feeTypeCode: string;
  description: string;
  transactionTypeCodes: string[];
  labelsAll: string[];
  labelsNone: string[];
  currencyCode: string;
  calculation:
    | { kind: 'FIXED'; amount: string }
    | { kind: 'PERCENTAGE'; ratePercent: string }
    | {
        kind: 'TIERED';
        mode: TierMode;
        tiers: Array<{ upTo: string | null; ratePercent: string | null; flatAmount: string | null }>;
      };
  minimum: string | null;
  maximum: string | null;
}

export interface PriceListDocument {
  id: string;
  code: string;
  level: PriceListLevel;
  accountId: string | null;
  cardId: string | null;
  validFrom: string;
  validTo: string | null;
  rules: FeeRuleDocument[];
}

const dec = (v: string | null): Decimal | null => (v === null ? null : new Decimal(v));

export function toFeeRule(doc: FeeRuleDocument): FeeRule {
  const c = doc.calculation;
  let calculation: Calculation;
  if (c.kind === 'FIXED') calculation = { kind: 'FIXED', amount: new Decimal(c.amount) };
  else if (c.kind === 'PERCENTAGE')
    calculation = { kind: 'PERCENTAGE', ratePercent: new Decimal(c.ratePercent) };
  else {
    calculation = {
      kind: 'TIERED',
      mode: c.mode,
      tiers: c.tiers.map((t) => ({
        upTo: dec(t.upTo),
        ratePercent: dec(t.ratePercent),
        flatAmount: dec(t.flatAmount),
      })),
    };
  }
  return {
    feeTypeCode: doc.feeTypeCode,
    description: doc.description,
    transactionTypeCodes: [...doc.transactionTypeCodes],
    labelsAll: [...doc.labelsAll],
    labelsNone: [...doc.labelsNone],
    currencyCode: doc.currencyCode,
    calculation,
    minimum: dec(doc.minimum),
    maximum: dec(doc.maximum),
  };
}

export function toPriceList(doc: PriceListDocument) {
  return { ...doc, rules: doc.rules.map(toFeeRule) };
}

export interface RuleProblem {
  /** Path below the rule, e.g. `calculation.tiers[1].upTo`. */
  field: string;
  message: string;
}

/** Cross-field rules of one fee rule that a field-by-field schema cannot state. */
export function feeRuleProblems(doc: FeeRuleDocument): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const c = doc.calculation;
  if (c.kind === 'TIERED') {
    let previous: Decimal | null = null;
    c.tiers.forEach((tier, i) => {
      const last = i === c.tiers.length - 1;
      if (tier.ratePercent === null && tier.flatAmount === null) {
        problems.push({
          field: `calculation.tiers[${i}]`,
          message: 'A tier needs a ratePercent, a flatAmount or both',
        });
      }
      if (last && tier.upTo !== null) {
        problems.push({
          field: `calculation.tiers[${i}].upTo`,
          message: 'The last tier must be unbounded (upTo null)',
        });
      }
      if (!last && tier.upTo === null) {
        problems.push({
          field: `calculation.tiers[${i}].upTo`,
          message: 'Only the last tier may be unbounded',
        });
      }
      if (tier.upTo !== null) {
        const bound = new Decimal(tier.upTo);
        if (bound.lte(previous ?? 0)) {
          problems.push({
            field: `calculation.tiers[${i}].upTo`,
            message: 'Tier bounds must be positive and strictly increasing',
          });
        }
        previous = bound;
      }
    });
  }
  if (doc.minimum !== null && doc.maximum !== null && new Decimal(doc.minimum).gt(doc.maximum)) {
    problems.push({ field: 'minimum', message: 'minimum must not exceed maximum' });
  }
  const overlap = doc.labelsAll.filter((l) => doc.labelsNone.includes(l));
  if (overlap.length > 0) {
    problems.push({
      field: 'labelsNone',
      message: `A label cannot be both required and excluded: ${overlap.join(', ')}`,
    });
  }
  return problems;
}
