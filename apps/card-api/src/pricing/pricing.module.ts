import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import './pricing.messages';
import { CardsModule } from './card-context';
import { CatalogRepository } from './catalogs/catalog.repository';
import { CatalogsService } from './catalogs/catalogs.service';
import { LabelsController } from './catalogs/labels.controller';
import { LabelEntity } from './catalogs/label.entity';
import { TransactionTypeEntity } from './catalogs/transaction-type.entity';
import { TransactionTypesController } from './catalogs/transaction-types.controller';
import { ExchangeRateEntity } from './exchange-rates/exchange-rate.entity';
import { ExchangeRateRepository } from './exchange-rates/exchange-rate.repository';
import { ExchangeRatesService } from './exchange-rates/exchange-rates.service';
import { ExchangeRatesController } from './exchange-rates/exchange-rates.controller';
import { PriceListEntity } from './price-lists/price-list.entity';
import { PriceListRepository } from './price-lists/price-list.repository';
import { PriceListsService } from './price-lists/price-lists.service';
import { PriceListsController } from './price-lists/price-lists.controller';
import { FeeQuotesService } from './fee-quotes/fee-quotes.service';
import { FeeQuotesController } from './fee-quotes/fee-quotes.controller';
import { PricingCache } from './fee-quotes/pricing-cache';
import { TenantPricingRepository } from './fee-quotes/tenant-pricing.repository';

export const PRICING_ENTITIES = [TransactionTypeEntity, LabelEntity, PriceListEntity, ExchangeRateEntity];

/** Catalogs, price lists, exchange rates and the fee quote; cards and accounts come from the card context. */
@Module({
  imports: [TypeOrmModule.forFeature(PRICING_ENTITIES), CardsModule],
  controllers: [
    FeeQuotesController,
    TransactionTypesController,
    LabelsController,
    ExchangeRatesController,
    PriceListsController,
  ],
  providers: [
    CatalogRepository,
    ExchangeRateRepository,
    PriceListRepository,
    TenantPricingRepository,
    PricingCache,
    CatalogsService,
    ExchangeRatesService,
    PriceListsService,
    FeeQuotesService,
  ],
})
export class PricingModule {}
