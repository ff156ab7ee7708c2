import type Decimal from 'decimal.js';

/** Where a price list applies: the tenant default, one account or one card (most specific wins). */
export const PRICE_LIST_LEVELS = ['TENANT', 'ACCOUNT', 'CARD'] as const;
export type PriceListLevel = (typeof PRICE_LIST_LEVELS)[number];

/** VOLUME: the whole amount at the tier it falls in; GRADUATED: each slice at its tier. */
export const TIER_MODES = ['VOLUME', 'GRADUATED'] as const;
export type TierMode = (typeof TIER_MODES)[number];

export interface Tier {
  /** Inclusive upper bound of the tier in the rule's currency; null = no bound (the last tier). */
  upTo: Decimal | null;
  ratePercent: Decimal | null;
  flatAmount: Decimal | null;
}

export type Calculation =
  | { kind: 'FIXED'; amount: Decimal }
  | { kind: 'PERCENTAGE'; ratePercent: Decimal }
  | { kind: 'TIERED'; mode: TierMode; tiers: Tier[] };

export interface FeeRule {
  feeTypeCode: string;
  description: string;
  /** Transaction types the rule prices; never empty. */
  transactionTypeCodes: string[];
  /** The rule applies only when the transaction carries every one of these labels. */
  labelsAll: string[];
  /** ... and none of these. */
  labelsNone: string[];
  /** Currency of the rule's money figures (fixed amount, tier bounds and flats, minimum, maximum). */
  currencyCode: string;
  calculation: Calculation;
  minimum: Decimal | null;
  maximum: Decimal | null;
}

export interface PriceList {
  id: string;
  code: string;
  level: PriceListLevel;
  accountId: string | null;
  cardId: string | null;
  validFrom: string;
  validTo: string | null;
  rules: FeeRule[];
}

export interface ExchangeRate {
  baseCurrency: string;
  quoteCurrency: string;
  /** Units of quoteCurrency for one unit of baseCurrency. */
  rate: Decimal;
  /** The rate holds from this date until the next rate of the pair. */
  validFrom: string;
}

export interface Transaction {
  postingDate: string;
  transactionTypeCode: string;
  amount: Decimal;
  currencyCode: string;
  labels: string[];
  accountId: string;
  cardId: string | null;
}
