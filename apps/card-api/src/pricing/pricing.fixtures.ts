import type { Principal } from '@fincore/platform';
import type { PriceListDocument } from './domain/fee-rule-document';
import { STANDARD_PRICE_LIST_RULES } from './domain/standard-catalog';
import type { PriceListEntity } from './price-lists/price-list.entity';

// Builders for the pricing service specs.

export const TENANT_ID = '00000000-0000-4000-8000-000000000001';

export const principal: Principal = {
  tokenId: 'token-1',
  tenantId: TENANT_ID,
  tenantCode: 'ACME',
  scopes: ['pricing:read', 'pricing:write', 'fees:quote'],
};

/** A price list as stored: the standard tariff as tenant default unless told otherwise. */
export function priceListEntity(over: Partial<PriceListEntity> = {}): PriceListEntity {
  return {
    id: 'pl-standard',
    tenantId: TENANT_ID,
    code: 'STANDARD-2026',
    name: 'Standard tariff 2026',
    level: 'TENANT',
    accountId: null,
    cardId: null,
    validFrom: '2026-01-01',
    validTo: null,
    rules: STANDARD_PRICE_LIST_RULES,
    version: 1,
    createdAt: new Date('2026-01-01T08:00:00Z'),
    updatedAt: new Date('2026-01-02T08:00:00Z'),
    ...over,
  };
}

/** The same list as the quote cache's snapshot holds it. */
export function priceListDocument(over: Partial<PriceListDocument> = {}): PriceListDocument {
  const { id, code, level, accountId, cardId, validFrom, validTo, rules } = priceListEntity();
  return { id, code, level, accountId, cardId, validFrom, validTo, rules, ...over };
}
