import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountChanges } from './accounts/account-changes';
import { AccountEntity } from './accounts/account.entity';
import { AccountRepository } from './accounts/account.repository';
import { AccountsController } from './accounts/accounts.controller';
import { AccountsService } from './accounts/accounts.service';
import { CardSettingsChangeEntity } from './card/card-settings-change.entity';
import { CardSettingsChangeRepository } from './card/card-settings-change.repository';
import { CardSettingsController } from './settings/card-settings.controller';
import { CardSettingsService } from './settings/card-settings.service';
import { ServiceCodesController } from './service-codes/service-codes.controller';
import { UsageGroupCards } from './usage-groups/usage-group-cards';
import { UsageGroupEntity } from './usage-groups/usage-group.entity';
import { UsageGroupRepository } from './usage-groups/usage-group.repository';
import { UsageGroupsController } from './usage-groups/usage-groups.controller';
import { UsageGroupsService } from './usage-groups/usage-groups.service';
import { CardRefs } from './card/card-refs';
import { CardEntity } from './card/card.entity';
import { CardRepository } from './card/card.repository';
import { CardsController } from './card/cards.controller';
import { CardsService } from './card/cards.service';

export const CARDS_ENTITIES = [AccountEntity, UsageGroupEntity, CardEntity, CardSettingsChangeEntity];

/**
 * The card context: accounts, usage groups, cards, their settings and authorisation checks, and
 * the service-code catalog. Exports the card and account repositories and their cached refs for
 * fee quotation.
 */
@Module({
  imports: [TypeOrmModule.forFeature(CARDS_ENTITIES)],
  controllers: [
    AccountsController,
    UsageGroupsController,
    ServiceCodesController,
    CardsController,
    CardSettingsController,
  ],
  providers: [
    AccountRepository,
    UsageGroupRepository,
    CardRepository,
    CardRefs,
    CardSettingsChangeRepository,
    AccountsService,
    UsageGroupsService,
    CardsService,
    CardSettingsService,
    { provide: AccountChanges, useExisting: CardRefs },
    { provide: UsageGroupCards, useExisting: CardSettingsService },
  ],
  exports: [CardRepository, AccountRepository, CardRefs],
})
export class CardsModule {}
