import { ROUNDING_MODE_NAME } from '../domain/currency';

// OpenAPI examples of the fee quote: an ATM withdrawal abroad on the demo tariff.

export const FEE_QUOTE_REQUEST_EXAMPLE = {
  postingDate: '2026-03-15',
  transactionTypeCode: 'ATM_WITHDRAWAL',
  transactionAmount: { amount: 100.0, currencyCode: 'EUR' },
  labels: ['INTERNATIONAL'],
  accountId: 'ACC-DEMO-001',
  cardId: 'CARD-DEMO-VISA-1',
};

export const TRANSACTION_AMOUNT_EXAMPLE = { amount: 100.0, currencyCode: 'EUR' };

const DEMO_PRICE_LIST_REF = {
  id: '6f1c1a52-5b1e-4e8e-9d0e-1f2a3b4c5d6e',
  code: 'DEMO-STANDARD-2026',
  level: 'TENANT',
};

export const FEE_QUOTE_RESPONSE_EXAMPLE = {
  ...FEE_QUOTE_REQUEST_EXAMPLE,
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
      priceList: DEMO_PRICE_LIST_REF,
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
      priceList: DEMO_PRICE_LIST_REF,
    },
  ],
  priceList: DEMO_PRICE_LIST_REF,
  roundingMode: ROUNDING_MODE_NAME,
};
