import type { FeeRuleDocument } from './fee-rule-document';

export interface CatalogReferences {
  transactionTypeCodes: string[];
  labelCodes: string[];
}

export interface CatalogReferenceProblem {
  /** Path in the price list body, e.g. `rules[0].labelsAll[1]`. */
  field: string;
  message: string;
}

/** The distinct transaction types and labels a price list's rules name. */
export function catalogReferencesOf(rules: readonly FeeRuleDocument[]): CatalogReferences {
  return {
    transactionTypeCodes: [...new Set(rules.flatMap((r) => r.transactionTypeCodes))],
    labelCodes: [...new Set(rules.flatMap((r) => [...r.labelsAll, ...r.labelsNone]))],
  };
}

/** Every place the rules name a transaction type or label missing from the tenant's catalogs. */
export function unknownCatalogReferences(
  rules: readonly FeeRuleDocument[],
  known: { transactionTypeCodes: ReadonlySet<string>; labelCodes: ReadonlySet<string> },
): CatalogReferenceProblem[] {
  const problems: CatalogReferenceProblem[] = [];
  rules.forEach((rule, i) => {
    rule.transactionTypeCodes.forEach((code, j) => {
      if (!known.transactionTypeCodes.has(code))
        problems.push({
          field: `rules[${i}].transactionTypeCodes[${j}]`,
          message: `unknown transaction type ${code}`,
        });
    });
    (['labelsAll', 'labelsNone'] as const).forEach((key) =>
      rule[key].forEach((code, j) => {
        if (!known.labelCodes.has(code))
          problems.push({ field: `rules[${i}].${key}[${j}]`, message: `unknown label ${code}` });
      }),
    );
  });
  return problems;
}
