import type { EntityManager } from 'typeorm';
import type { DemoSeed, TenantEntity } from '@fincore/platform';
import { ExchangeRateEntity } from './entities/exchange-rate.entity';
import { LabelEntity } from './entities/label.entity';
import { PriceListEntity } from './entities/price-list.entity';
import { TransactionTypeEntity } from './entities/transaction-type.entity';
import {
  STANDARD_EXCHANGE_RATES,
  STANDARD_LABELS,
  STANDARD_PRICE_LIST_RULES,
  STANDARD_TRANSACTION_TYPES,
} from './domain/standard-catalog';

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
    await manager
      .createQueryBuilder()
      .insert()
      .into(TransactionTypeEntity)
      .values(STANDARD_TRANSACTION_TYPES.map((t) => ({ tenantId, ...t })))
      .orIgnore()
      .execute();
    await manager
      .createQueryBuilder()
      .insert()
      .into(LabelEntity)
      .values(STANDARD_LABELS.map((l) => ({ tenantId, ...l })))
      .orIgnore()
      .execute();
    await manager
      .createQueryBuilder()
      .insert()
      .into(ExchangeRateEntity)
      .values(STANDARD_EXCHANGE_RATES.map((r) => ({ tenantId, ...r })))
      .orIgnore()
      .execute();
    const lists = manager.getRepository(PriceListEntity);
    let list = await lists.findOne({ where: { tenantId, code: DEMO_PRICE_LIST_CODE } });
    const hasTenantDefault = list ?? (await lists.findOne({ where: { tenantId, level: 'TENANT' } }));
    if (!hasTenantDefault) {
      list = await lists.save(
        lists.create({
          tenantId,
          code: DEMO_PRICE_LIST_CODE,
          name: 'Standard tariff 2026 (demo)',
          level: 'TENANT',
          accountId: null,
          cardId: null,
          validFrom: '2026-01-01',
          validTo: null,
          rules: STANDARD_PRICE_LIST_RULES,
        }),
      );
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
