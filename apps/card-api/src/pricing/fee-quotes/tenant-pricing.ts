import Decimal from 'decimal.js';
import { toPriceList, type PriceListDocument } from '../domain/fee-rule-document';
import type { ExchangeRate, PriceList } from '../domain/pricing-model';

/** A tenant's pricing as stored: dates as ISO text, decimal figures as strings. */
export interface TenantPricingDocuments {
  transactionTypes: Array<{ code: string; zeroAmountAllowed: boolean }>;
  labels: string[];
  priceLists: PriceListDocument[];
  rates: Array<{ baseCurrency: string; quoteCurrency: string; validFrom: string; rate: string }>;
}

/** Everything a quote needs from the pricing schema, for one tenant, indexed for the hot path. */
export interface TenantPricing {
  transactionTypes: ReadonlyMap<string, { zeroAmountAllowed: boolean }>;
  labels: ReadonlySet<string>;
  tenantLists: readonly PriceList[];
  accountLists: ReadonlyMap<string, PriceList[]>;
  cardLists: ReadonlyMap<string, PriceList[]>;
  rates: readonly ExchangeRate[];
}

export function indexTenantPricing(docs: TenantPricingDocuments): TenantPricing {
  const lists = docs.priceLists.map(toPriceList);
  const group = (level: PriceList['level'], key: (l: PriceList) => string | null) => {
    const map = new Map<string, PriceList[]>();
    for (const l of lists) {
      const k = key(l);
      if (l.level !== level || k === null) continue;
      map.set(k, [...(map.get(k) ?? []), l]);
    }
    return map;
  };
  return {
    transactionTypes: new Map(
      docs.transactionTypes.map((t) => [t.code, { zeroAmountAllowed: t.zeroAmountAllowed }]),
    ),
    labels: new Set(docs.labels),
    tenantLists: lists.filter((l) => l.level === 'TENANT'),
    accountLists: group('ACCOUNT', (l) => l.accountId),
    cardLists: group('CARD', (l) => l.cardId),
    rates: docs.rates.map((r) => ({ ...r, rate: new Decimal(r.rate) })),
  };
}
