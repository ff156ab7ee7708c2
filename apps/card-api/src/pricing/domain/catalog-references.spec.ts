import { catalogReferencesOf, unknownCatalogReferences } from './catalog-references';
import { STANDARD_PRICE_LIST_RULES } from './standard-catalog';

const rule = (over: Partial<(typeof STANDARD_PRICE_LIST_RULES)[number]>) => ({
  ...STANDARD_PRICE_LIST_RULES[0],
  ...over,
});

describe('catalogReferencesOf', () => {
  it('collects each transaction type and label once, excluded labels included', () => {
    const sut = catalogReferencesOf([
      rule({ transactionTypeCodes: ['ATM_WITHDRAWAL'], labelsAll: ['INTERNATIONAL'], labelsNone: [] }),
      rule({
        transactionTypeCodes: ['ATM_WITHDRAWAL', 'TRANSFER'],
        labelsAll: [],
        labelsNone: ['OWN_NETWORK'],
      }),
    ]);
    expect(sut).toEqual({
      transactionTypeCodes: ['ATM_WITHDRAWAL', 'TRANSFER'],
      labelCodes: ['INTERNATIONAL', 'OWN_NETWORK'],
    });
  });
});

describe('unknownCatalogReferences', () => {
  const rules = [
    rule({
      transactionTypeCodes: ['ATM_WITHDRAWAL', 'TELEPORT'],
      labelsAll: ['MOON'],
      labelsNone: ['DOMESTIC'],
    }),
  ];

  it('names every place a missing code is used', () => {
    const sut = unknownCatalogReferences(rules, {
      transactionTypeCodes: new Set(['ATM_WITHDRAWAL']),
      labelCodes: new Set(['DOMESTIC']),
    });
    expect(sut).toEqual([
      { field: 'rules[0].transactionTypeCodes[1]', message: 'unknown transaction type TELEPORT' },
      { field: 'rules[0].labelsAll[0]', message: 'unknown label MOON' },
    ]);
  });

  it('finds nothing when the catalogs hold every code', () => {
    const known = {
      transactionTypeCodes: new Set(['ATM_WITHDRAWAL', 'TELEPORT']),
      labelCodes: new Set(['MOON', 'DOMESTIC']),
    };
    expect(unknownCatalogReferences(rules, known)).toEqual([]);
  });
});
