import type { z } from 'zod';
import type { PriceListEntity } from './price-list.entity';
import type { PriceListResponse } from './price-list.schemas';

export function mapPriceList(e: PriceListEntity): z.infer<typeof PriceListResponse> {
  return {
    id: e.id,
    code: e.code,
    name: e.name,
    level: e.level,
    accountId: e.accountId,
    cardId: e.cardId,
    validFrom: e.validFrom,
    validTo: e.validTo,
    rules: e.rules,
    version: e.version,
    updatedAt: e.updatedAt.toISOString(),
  };
}
