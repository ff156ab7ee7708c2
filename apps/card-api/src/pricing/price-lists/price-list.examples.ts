// OpenAPI examples of the price-list operations.

export const PRICE_LIST_REQUEST_EXAMPLE = {
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

export const PRICE_LIST_EXAMPLE = {
  id: '0b9c7a7e-2f55-4d0c-8d1f-3c1b7e0d9a11',
  ...PRICE_LIST_REQUEST_EXAMPLE,
  accountId: null,
  version: 1,
  updatedAt: '2026-01-02T08:00:00.000Z',
};

export const PRICE_LIST_LIST_EXAMPLE = { items: [PRICE_LIST_EXAMPLE] };
