import type { FeeRuleDocument } from './fee-rule-document';

/**
 * The catalogs and price list a new tenant (and the demo tenant) starts from. docs/fees.md works
 * its examples on exactly these rules, and the unit tests check those examples.
 */
export const STANDARD_TRANSACTION_TYPES: Array<{ code: string; name: string; zeroAmountAllowed: boolean }> = [
  { code: 'POS_PURCHASE', name: 'Purchase at a point of sale', zeroAmountAllowed: false },
  { code: 'ECOMMERCE_PURCHASE', name: 'E-commerce purchase', zeroAmountAllowed: false },
  { code: 'ATM_WITHDRAWAL', name: 'Cash withdrawal at an ATM', zeroAmountAllowed: false },
  { code: 'CASH_BACK', name: 'Purchase with cash back', zeroAmountAllowed: false },
  {
    code: 'QUASI_CASH',
    name: 'Quasi-cash purchase (casino chips, foreign currency, crypto)',
    zeroAmountAllowed: false,
  },
  { code: 'TRANSFER', name: 'Card-to-account transfer', zeroAmountAllowed: false },
  { code: 'MONEYSEND', name: 'Moneysend payment to a card', zeroAmountAllowed: false },
  { code: 'BALANCE_INQUIRY', name: 'Balance inquiry at an ATM', zeroAmountAllowed: true },
];

export const STANDARD_LABELS: Array<{ code: string; name: string }> = [
  { code: 'DOMESTIC', name: 'Merchant or ATM in the card issuing country' },
  { code: 'INTERNATIONAL', name: 'Merchant or ATM outside the issuing country' },
  { code: 'CONTACTLESS', name: 'Card read contactless' },
  { code: 'CURRENCY_CONVERSION', name: 'Transaction currency differs from the account currency' },
  { code: 'OWN_NETWORK', name: 'ATM of the issuing bank or its network' },
];

const rule = (
  r: Partial<FeeRuleDocument> &
    Pick<FeeRuleDocument, 'feeTypeCode' | 'description' | 'transactionTypeCodes' | 'calculation'>,
): FeeRuleDocument => ({
  labelsAll: [],
  labelsNone: [],
  currencyCode: 'EUR',
  minimum: null,
  maximum: null,
  ...r,
});

/** A retail bank's standard tariff (EUR). Order matters: per fee type the first matching rule wins. */
export const STANDARD_PRICE_LIST_RULES: FeeRuleDocument[] = [
  rule({
    feeTypeCode: 'ATM_WITHDRAWAL_FEE',
    description: 'Cash withdrawal abroad: 2 % of the amount, at least 5.00 EUR, at most 15.00 EUR',
    transactionTypeCodes: ['ATM_WITHDRAWAL'],
    labelsAll: ['INTERNATIONAL'],
    calculation: { kind: 'PERCENTAGE', ratePercent: '2' },
    minimum: '5.00',
    maximum: '15.00',
  }),
  rule({
    feeTypeCode: 'ATM_WITHDRAWAL_FEE',
    description: 'Domestic cash withdrawal at another bank’s ATM: 2.00 EUR',
    transactionTypeCodes: ['ATM_WITHDRAWAL'],
    labelsNone: ['OWN_NETWORK'],
    calculation: { kind: 'FIXED', amount: '2.00' },
  }),
  rule({
    feeTypeCode: 'ATM_OPERATOR_FEE',
    description: 'Surcharge passed on from foreign ATM operators: 3.00 USD',
    transactionTypeCodes: ['ATM_WITHDRAWAL'],
    labelsAll: ['INTERNATIONAL'],
    currencyCode: 'USD',
    calculation: { kind: 'FIXED', amount: '3.00' },
  }),
  rule({
    feeTypeCode: 'FX_MARKUP',
    description: 'Currency conversion mark-up: 1.75 % of the amount',
    transactionTypeCodes: ['POS_PURCHASE', 'ECOMMERCE_PURCHASE', 'ATM_WITHDRAWAL', 'CASH_BACK', 'QUASI_CASH'],
    labelsAll: ['CURRENCY_CONVERSION'],
    calculation: { kind: 'PERCENTAGE', ratePercent: '1.75' },
  }),
  rule({
    feeTypeCode: 'QUASI_CASH_FEE',
    description: 'Quasi-cash purchase: 3 % of the amount, at least 3.00 EUR',
    transactionTypeCodes: ['QUASI_CASH'],
    calculation: { kind: 'PERCENTAGE', ratePercent: '3' },
    minimum: '3.00',
  }),
  rule({
    feeTypeCode: 'TRANSFER_FEE',
    description:
      'Transfer, graduated: 0.5 % up to 1,000, 0.25 % up to 10,000, 0.1 % above; at most 50.00 EUR',
    transactionTypeCodes: ['TRANSFER', 'MONEYSEND'],
    calculation: {
      kind: 'TIERED',
      mode: 'GRADUATED',
      tiers: [
        { upTo: '1000', ratePercent: '0.5', flatAmount: null },
        { upTo: '10000', ratePercent: '0.25', flatAmount: null },
        { upTo: null, ratePercent: '0.1', flatAmount: null },
      ],
    },
    maximum: '50.00',
  }),
  rule({
    feeTypeCode: 'BALANCE_INQUIRY_FEE',
    description: 'Balance inquiry abroad: 1.00 EUR',
    transactionTypeCodes: ['BALANCE_INQUIRY'],
    labelsAll: ['INTERNATIONAL'],
    calculation: { kind: 'FIXED', amount: '1.00' },
  }),
];

/** A premium card's tariff, for the card-level examples: volume tiers on transfers, no FX mark-up. */
export const PREMIUM_CARD_RULES: FeeRuleDocument[] = [
  rule({
    feeTypeCode: 'TRANSFER_FEE',
    description: 'Transfer, volume: up to 500 a flat 0.50 EUR, up to 5,000 0.2 %, above 0.1 % + 1.00 EUR',
    transactionTypeCodes: ['TRANSFER', 'MONEYSEND'],
    calculation: {
      kind: 'TIERED',
      mode: 'VOLUME',
      tiers: [
        { upTo: '500', ratePercent: null, flatAmount: '0.50' },
        { upTo: '5000', ratePercent: '0.2', flatAmount: null },
        { upTo: null, ratePercent: '0.1', flatAmount: '1.00' },
      ],
    },
  }),
];

/** Reference rates of the demo tenant (units of quote currency per one unit of base currency). */
export const STANDARD_EXCHANGE_RATES: Array<{
  baseCurrency: string;
  quoteCurrency: string;
  rate: string;
  validFrom: string;
}> = [
  { baseCurrency: 'USD', quoteCurrency: 'EUR', rate: '0.92', validFrom: '2026-01-01' },
  { baseCurrency: 'EUR', quoteCurrency: 'JPY', rate: '162.35', validFrom: '2026-01-01' },
  { baseCurrency: 'USD', quoteCurrency: 'JPY', rate: '149.5', validFrom: '2026-01-01' },
  { baseCurrency: 'EUR', quoteCurrency: 'USD', rate: '1.087', validFrom: '2026-01-01' },
  { baseCurrency: 'EUR', quoteCurrency: 'BHD', rate: '0.4098', validFrom: '2026-01-01' },
  { baseCurrency: 'USD', quoteCurrency: 'BHD', rate: '0.376', validFrom: '2026-01-01' },
];
