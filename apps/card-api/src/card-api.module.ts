import { Module } from '@nestjs/common';
import { EventsModule } from '@fincore/events';
import { CardsModule } from './cards/cards.module';
import { PricingModule } from './pricing/pricing.module';

@Module({
  imports: [EventsModule.forRoot({ relay: true }), CardsModule, PricingModule],
})
export class CardApiModule {}
