import Decimal from 'decimal.js';
import { isWithin } from './calendar';
import { roundToMinorUnit } from './currency';
import type {
  Calculation,
  ExchangeRate,
  FeeRule,
  PriceList,
  PriceListLevel,
  Tier,
  TierMode,
  Transaction,
} from './pricing-model';

const HUNDRED = new Decimal(100);
const ZERO = new Decimal(0);

/** A business rule stopped the quote; the service turns it into a 422 problem. */
export class QuoteError extends Error {
  constructor(
    readonly code: 'no_price_list' | 'exchange_rate_missing',
    readonly params: Record<string, unknown>,
  ) {
    super(code);
    this.name = 'QuoteError';
  }
}

export interface TierApplied {
  /** 1-based position of the tier in the rule. */
  tier: number;
  upTo: Decimal | null;
  ratePercent: Decimal | null;
  flatAmount: Decimal | null;
  /** The part of the base priced by this tier (the whole base in volume mode). */
  portion: Decimal;
  amount: Decimal;
}

export interface Conversion {
  fromCurrency: string;
  toCurrency: string;
  rate: Decimal;
  rateValidFrom: string;
}

export interface FeeLine {
  feeTypeCode: string;
  description: string;
  amount: Decimal;
  currencyCode: string;
  calculation: {
    kind: Calculation['kind'];
    mode: TierMode | null;
    base: Decimal;
    ratePercent: Decimal | null;
    fixedAmount: Decimal | null;
    tiers: TierApplied[];
    /** Before minimum/maximum, rounded to the minor unit. */
    calculatedAmount: Decimal;
    minimum: Decimal | null;
    maximum: Decimal | null;
    capApplied: 'MINIMUM' | 'MAXIMUM' | null;
  };
  conversion: Conversion | null;
  priceList: { id: string; code: string; level: PriceListLevel };
}

export interface Quote {
  totalPrice: Decimal;
  currencyCode: string;
  fees: FeeLine[];
  priceList: { id: string; code: string; level: PriceListLevel };
}

/**
 * The price list of a transaction: the card's, else the account's, else the tenant default, each
 * only when valid on the posting date. Validity periods never overlap within one level and owner,
 * so at most one candidate per level exists.
 */
export function resolvePriceList(
  lists: readonly PriceList[],
  tx: Pick<Transaction, 'postingDate' | 'accountId' | 'cardId'>,
): PriceList | null {
  const validOn = (list: PriceList) => isWithin(tx.postingDate, list.validFrom, list.validTo);
  const card =
    tx.cardId === null
      ? undefined
      : lists.find((l) => l.level === 'CARD' && l.cardId === tx.cardId && validOn(l));
  if (card) return card;
  const account = lists.find((l) => l.level === 'ACCOUNT' && l.accountId === tx.accountId && validOn(l));
  if (account) return account;
  return lists.find((l) => l.level === 'TENANT' && validOn(l)) ?? null;
}

/**
 * A rule applies when it names the transaction type, the transaction carries every label of
 * labelsAll and none of labelsNone. Labels the rule does not mention do not matter.
 */
export function ruleMatches(rule: FeeRule, tx: Pick<Transaction, 'transactionTypeCode' | 'labels'>): boolean {
  if (!rule.transactionTypeCodes.includes(tx.transactionTypeCode)) return false;
  const labels = new Set(tx.labels);
  return rule.labelsAll.every((l) => labels.has(l)) && !rule.labelsNone.some((l) => labels.has(l));
}

/** The rate of the pair in force on the date: the latest one valid from that date or earlier. */
export function rateOn(
  rates: readonly ExchangeRate[],
  from: string,
  to: string,
  date: string,
): ExchangeRate | null {
  let best: ExchangeRate | null = null;
  for (const r of rates) {
    if (r.baseCurrency !== from || r.quoteCurrency !== to || r.validFrom > date) continue;
    if (!best || r.validFrom > best.validFrom) best = r;
  }
  return best;
}

/** Tier amount: the portion at the tier's rate, plus its flat amount. */
function priceTier(portion: Decimal, tier: Tier): Decimal {
  const proportional = tier.ratePercent ? portion.mul(tier.ratePercent).div(HUNDRED) : ZERO;
  return proportional.add(tier.flatAmount ?? ZERO);
}

/**
 * Volume: the whole base at the tier it falls in (first tier whose bound is >= base).
 * Graduated: each slice of the base at its own tier; a tier is entered when the base exceeds the
 * previous bound (the first tier always), and an entered tier adds its flat amount once.
 */
export function priceTiers(mode: TierMode, tiers: readonly Tier[], base: Decimal): TierApplied[] {
  if (mode === 'VOLUME') {
    const index = tiers.findIndex((t) => t.upTo === null || base.lte(t.upTo));
    const tier = tiers[index === -1 ? tiers.length - 1 : index];
    return [
      {
        tier: (index === -1 ? tiers.length - 1 : index) + 1,
        ...tier,
        portion: base,
        amount: priceTier(base, tier),
      },
    ];
  }
  const applied: TierApplied[] = [];
  let lower = ZERO;
  for (const [i, tier] of tiers.entries()) {
    if (i > 0 && base.lte(lower)) break;
    const upper = tier.upTo === null ? base : Decimal.min(base, tier.upTo);
    const portion = Decimal.max(upper.sub(lower), ZERO);
    applied.push({ tier: i + 1, ...tier, portion, amount: priceTier(portion, tier) });
    if (tier.upTo === null) break;
    lower = tier.upTo;
  }
  return applied;
}

const scale = (value: Decimal | null, factor: Decimal): Decimal | null =>
  value === null ? null : value.mul(factor);

/** The rule's money figures needed to price it, in the transaction currency. */
function needsConversion(rule: FeeRule): boolean {
  const c = rule.calculation;
  return c.kind === 'FIXED' || c.kind === 'TIERED' || rule.minimum !== null || rule.maximum !== null;
}

/** Prices one rule for a transaction; figures in another currency are converted at the posting-date rate. */
export function priceRule(
  rule: FeeRule,
  tx: Transaction,
  rates: readonly ExchangeRate[],
  priceList: Quote['priceList'],
): FeeLine {
  const currency = tx.currencyCode;
  let factor = new Decimal(1);
  let conversion: Conversion | null = null;
  if (rule.currencyCode !== currency && needsConversion(rule)) {
    const rate = rateOn(rates, rule.currencyCode, currency, tx.postingDate);
    if (!rate) {
      throw new QuoteError('exchange_rate_missing', {
        from: rule.currencyCode,
        to: currency,
        date: tx.postingDate,
        feeTypeCode: rule.feeTypeCode,
      });
    }
    factor = rate.rate;
    conversion = {
      fromCurrency: rule.currencyCode,
      toCurrency: currency,
      rate: rate.rate,
      rateValidFrom: rate.validFrom,
    };
  }

  const c = rule.calculation;
  let raw: Decimal;
  let tiers: TierApplied[] = [];
  if (c.kind === 'FIXED') raw = c.amount.mul(factor);
  else if (c.kind === 'PERCENTAGE') raw = tx.amount.mul(c.ratePercent).div(HUNDRED);
  else {
    const converted = c.tiers.map((t) => ({
      upTo: scale(t.upTo, factor),
      ratePercent: t.ratePercent,
      flatAmount: scale(t.flatAmount, factor),
    }));
    tiers = priceTiers(c.mode, converted, tx.amount);
    raw = tiers.reduce((sum, t) => sum.add(t.amount), ZERO);
  }

  // Round first, then clamp to rounded caps: the fee is always on the minor unit and within the caps.
  const calculated = roundToMinorUnit(raw, currency);
  const minimum = rule.minimum === null ? null : roundToMinorUnit(rule.minimum.mul(factor), currency);
  const maximum = rule.maximum === null ? null : roundToMinorUnit(rule.maximum.mul(factor), currency);
  let amount = calculated;
  let capApplied: FeeLine['calculation']['capApplied'] = null;
  if (minimum !== null && amount.lt(minimum)) {
    amount = minimum;
    capApplied = 'MINIMUM';
  }
  if (maximum !== null && amount.gt(maximum)) {
    amount = maximum;
    capApplied = 'MAXIMUM';
  }

  return {
    feeTypeCode: rule.feeTypeCode,
    description: rule.description,
    amount,
    currencyCode: currency,
    calculation: {
      kind: c.kind,
      mode: c.kind === 'TIERED' ? c.mode : null,
      base: tx.amount,
      ratePercent: c.kind === 'PERCENTAGE' ? c.ratePercent : null,
      fixedAmount: c.kind === 'FIXED' ? c.amount.mul(factor) : null,
      tiers,
      calculatedAmount: calculated,
      minimum,
      maximum,
      capApplied,
    },
    conversion,
    priceList,
  };
}

/**
 * The quote of a transaction: the price list that applies, then for each fee type the first rule
 * (in price-list order) that matches; the total is the sum of the rounded fees.
 */
export function quoteFees(
  tx: Transaction,
  priceLists: readonly PriceList[],
  rates: readonly ExchangeRate[],
): Quote {
  const list = resolvePriceList(priceLists, tx);
  if (!list) throw new QuoteError('no_price_list', { date: tx.postingDate });
  const source = { id: list.id, code: list.code, level: list.level };
  const seen = new Set<string>();
  const fees: FeeLine[] = [];
  for (const rule of list.rules) {
    if (seen.has(rule.feeTypeCode) || !ruleMatches(rule, tx)) continue;
    seen.add(rule.feeTypeCode);
    fees.push(priceRule(rule, tx, rates, source));
  }
  const totalPrice = fees.reduce((sum, f) => sum.add(f.amount), roundToMinorUnit(ZERO, tx.currencyCode));
  return { totalPrice, currencyCode: tx.currencyCode, fees, priceList: source };
}
