import { feeRuleProblems, FeeRuleDocument } from './fee-rule-document';
import { STANDARD_PRICE_LIST_RULES } from './standard-catalog';

describe('fee rule validation', () => {
  const base = STANDARD_PRICE_LIST_RULES[5];
  const withTiers = (
    tiers: Array<{ upTo: string | null; ratePercent: string | null; flatAmount: string | null }>,
  ): FeeRuleDocument => ({
    ...base,
    calculation: { kind: 'TIERED', mode: 'VOLUME', tiers },
  });

  it('accepts the standard rules', () => {
    for (const sut of STANDARD_PRICE_LIST_RULES) expect(feeRuleProblems(sut)).toEqual([]);
  });

  it('refuses unordered bounds, a bounded last tier, an empty tier, min above max and contradictory labels', () => {
    expect(
      feeRuleProblems(
        withTiers([
          { upTo: '100', ratePercent: '1', flatAmount: null },
          { upTo: '50', ratePercent: '1', flatAmount: null },
          { upTo: null, ratePercent: '1', flatAmount: null },
        ]),
      ).map((p) => p.field),
    ).toEqual(['calculation.tiers[1].upTo']);
    expect(
      feeRuleProblems(withTiers([{ upTo: '100', ratePercent: '1', flatAmount: null }])).map((p) => p.field),
    ).toEqual(['calculation.tiers[0].upTo']);
    expect(
      feeRuleProblems(withTiers([{ upTo: null, ratePercent: null, flatAmount: null }])).map((p) => p.field),
    ).toEqual(['calculation.tiers[0]']);
    expect(feeRuleProblems({ ...base, minimum: '10', maximum: '5' }).map((p) => p.field)).toEqual([
      'minimum',
    ]);
    expect(feeRuleProblems({ ...base, labelsAll: ['A'], labelsNone: ['A'] }).map((p) => p.field)).toEqual([
      'labelsNone',
    ]);
  });
});
