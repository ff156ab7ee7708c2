import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import './pricing.messages';
import { CardsModule } from '../cards/cards.module';
import { ExchangeRateEntity } from './entities/exchange-rate.entity';
import { LabelEntity } from './entities/label.entity';
import { PriceListEntity } from './entities/price-list.entity';
import { TransactionTypeEntity } from './entities/transaction-type.entity';
import { FeeQuoteService } from './fee-quote.service';
import { FeesController } from './fees.controller';
import {
  ExchangeRatesController,
  LabelsController,
  PriceListsController,
  TransactionTypesController,
} from './pricing.controller';
import { PricingCache } from './pricing-cache';
import { PricingService } from './pricing.service';

export const PRICING_ENTITIES = [TransactionTypeEntity, LabelEntity, PriceListEntity, ExchangeRateEntity];

/** Catalogs, price lists, exchange rates and the fee quote; cards and accounts come from CardsModule's CardDirectory. */
@Module({
  imports: [TypeOrmModule.forFeature(PRICING_ENTITIES), CardsModule],
  controllers: [
    FeesController,
    TransactionTypesController,
    LabelsController,
    ExchangeRatesController,
    PriceListsController,
  ],
  providers: [PricingCache, PricingService, FeeQuoteService],
})
export class PricingModule {}
