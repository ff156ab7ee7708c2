import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import './pricing.messages';
import { CardsModule } from './card-context';
import { CatalogRepository } from './catalogs/catalog.repository';
import { CatalogService } from './catalogs/catalog.service';
import { LabelsController } from './catalogs/labels.controller';
import { LabelEntity } from './catalogs/label.entity';
import { TransactionTypeEntity } from './catalogs/transaction-type.entity';
import { TransactionTypesController } from './catalogs/transaction-types.controller';
import { ExchangeRateEntity } from './exchange-rates/exchange-rate.entity';
import { ExchangeRateRepository } from './exchange-rates/exchange-rate.repository';
import { ExchangeRateService } from './exchange-rates/exchange-rate.service';
import { ExchangeRatesController } from './exchange-rates/exchange-rates.controller';
import { PriceListEntity } from './price-lists/price-list.entity';
import { PriceListRepository } from './price-lists/price-list.repository';
import { PriceListService } from './price-lists/price-list.service';
import { PriceListsController } from './price-lists/price-lists.controller';
import { FeeQuoteService } from './quotes/fee-quote.service';
import { FeesController } from './quotes/fees.controller';
import { PricingCache } from './quotes/pricing-cache';
import { TenantPricingRepository } from './quotes/tenant-pricing.repository';

export const PRICING_ENTITIES = [TransactionTypeEntity, LabelEntity, PriceListEntity, ExchangeRateEntity];

/** Catalogs, price lists, exchange rates and the fee quote; cards and accounts come from the card context. */
@Module({
  imports: [TypeOrmModule.forFeature(PRICING_ENTITIES), CardsModule],
  controllers: [
    FeesController,
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
    CatalogService,
    ExchangeRateService,
    PriceListService,
    FeeQuoteService,
  ],
})
export class PricingModule {}
