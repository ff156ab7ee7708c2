import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { TenantPricingDocuments } from './tenant-pricing';

/**
 * One round trip reads a tenant's whole pricing (dates as text, numerics as strings). Read-only:
 * the tables belong to CatalogRepository, PriceListRepository and ExchangeRateRepository.
 */
const LOAD_SQL = `
  SELECT
    (SELECT coalesce(json_agg(json_build_object('code', code, 'zeroAmountAllowed', zero_amount_allowed)), '[]'::json)
       FROM pricing.transaction_types WHERE tenant_id = $1) AS "transactionTypes",
    (SELECT coalesce(json_agg(code), '[]'::json) FROM pricing.labels WHERE tenant_id = $1) AS labels,
    (SELECT coalesce(json_agg(json_build_object(
              'id', id, 'code', code, 'level', level, 'accountId', account_id, 'cardId', card_id,
              'validFrom', to_char(valid_from, 'YYYY-MM-DD'), 'validTo', to_char(valid_to, 'YYYY-MM-DD'), 'rules', rules)), '[]'::json)
       FROM pricing.price_lists WHERE tenant_id = $1) AS "priceLists",
    (SELECT coalesce(json_agg(json_build_object(
              'baseCurrency', base_currency, 'quoteCurrency', quote_currency,
              'validFrom', to_char(valid_from, 'YYYY-MM-DD'), 'rate', rate::text)), '[]'::json)
       FROM pricing.exchange_rates WHERE tenant_id = $1) AS rates`;

/** The fee quote's read model: a snapshot of one tenant's catalogs, price lists and rates. Locks nothing. */
@Injectable()
export class TenantPricingRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async loadSnapshot(tenantId: string): Promise<TenantPricingDocuments> {
    const [row] = (await this.db.query(LOAD_SQL, [tenantId])) as TenantPricingDocuments[];
    return row;
  }
}
