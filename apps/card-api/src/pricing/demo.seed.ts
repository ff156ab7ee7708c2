import type { EntityManager } from 'typeorm';
import type { DemoSeed, TenantEntity } from '@fincore/platform';
import { CatalogRepository } from './catalogs/catalog.repository';
import { LabelEntity } from './catalogs/label.entity';
import { TransactionTypeEntity } from './catalogs/transaction-type.entity';
import {
  STANDARD_EXCHANGE_RATES,
  STANDARD_LABELS,
  STANDARD_PRICE_LIST_RULES,
  STANDARD_TRANSACTION_TYPES,
} from './domain/standard-catalog';
import { ExchangeRateEntity } from './exchange-rates/exchange-rate.entity';
import { ExchangeRateRepository } from './exchange-rates/exchange-rate.repository';
import { PriceListEntity } from './price-lists/price-list.entity';
import { PriceListRepository } from './price-lists/price-list.repository';

export const DEMO_PRICE_LIST_CODE = 'DEMO-STANDARD-2026';

/**
 * The demo tenant's catalogs, reference rates and default price list (the standard tariff of
 * docs/fees.md). Needs no account or card: quotes for the cards seed's ACC-DEMO-001 /
 * CARD-DEMO-VISA-1 fall back to this tenant default. Idempotent: creates only what is missing.
 */
export const PricingDemoSeed: DemoSeed = {
  context: 'pricing',
  entities: [TransactionTypeEntity, LabelEntity, PriceListEntity, ExchangeRateEntity],
  async seed(manager: EntityManager, tenant: TenantEntity) {
    const tenantId = tenant.id;
    const catalog = new CatalogRepository(manager.dataSource);
    const rates = new ExchangeRateRepository(manager.dataSource);
    const priceLists = new PriceListRepository(manager.dataSource);
    await catalog.insertMissingTransactionTypes(manager, tenantId, STANDARD_TRANSACTION_TYPES);
    await catalog.insertMissingLabels(manager, tenantId, STANDARD_LABELS);
    await rates.insertMissing(manager, tenantId, STANDARD_EXCHANGE_RATES);
    let list = await priceLists.findByCode(manager, tenantId, DEMO_PRICE_LIST_CODE);
    const hasTenantDefault = list ?? (await priceLists.findTenantDefault(manager, tenantId));
    if (!hasTenantDefault) {
      list = await priceLists.insert(manager, {
        tenantId,
        code: DEMO_PRICE_LIST_CODE,
        name: 'Standard tariff 2026 (demo)',
        level: 'TENANT',
        accountId: null,
        cardId: null,
        validFrom: '2026-01-01',
        validTo: null,
        rules: STANDARD_PRICE_LIST_RULES,
      });
    }
    return {
      transactionTypes: STANDARD_TRANSACTION_TYPES.map((t) => t.code),
      labels: STANDARD_LABELS.map((l) => l.code),
      exchangeRates: STANDARD_EXCHANGE_RATES.map(
        (r) => `${r.baseCurrency}/${r.quoteCurrency} ${r.rate} from ${r.validFrom}`,
      ),
      priceList: list
        ? { id: list.id, code: list.code, level: list.level, validFrom: list.validFrom }
        : 'a tenant default price list already exists',
    };
  },
};
