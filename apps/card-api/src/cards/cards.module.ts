import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import './cards.messages';
import { AccountsController } from './accounts.controller';
import { CardDirectory } from './card-directory';
import { CardSettingsService } from './card-settings.service';
import { CardsController } from './cards.controller';
import { CardsService } from './cards.service';
import { AccountEntity } from './entities/account.entity';
import { CardSettingsChangeEntity } from './entities/card-settings-change.entity';
import { CardEntity } from './entities/card.entity';
import { UsageGroupEntity } from './entities/usage-group.entity';
import { ServiceCodesController } from './service-codes.controller';
import { UsageGroupsController } from './usage-groups.controller';

export const CARDS_ENTITIES = [AccountEntity, UsageGroupEntity, CardEntity, CardSettingsChangeEntity];

/** Accounts, usage groups, cards, their settings and authorisation checks. Exports CardDirectory for fee quotation. */
@Module({
  imports: [TypeOrmModule.forFeature(CARDS_ENTITIES)],
  controllers: [AccountsController, UsageGroupsController, ServiceCodesController, CardsController],
  providers: [CardsService, CardSettingsService, CardDirectory],
  exports: [CardDirectory],
})
export class CardsModule {}
