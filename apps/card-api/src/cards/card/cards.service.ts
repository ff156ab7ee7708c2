import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Principal } from '@fincore/platform';
import { UnitOfWork } from '@fincore/events';
import { AccountRepository } from '../accounts/account.repository';
import { acceptsNewCards } from '../domain/account';
import { applicableServiceCodes, profileOf, toFlags } from '../domain/card-settings';
import { assertSettingsAcceptable } from './settings-problems';
import { UsageGroupRepository } from '../usage-groups/usage-group.repository';
import { mapCard } from './card.mapper';
import {
  accountClosed,
  cardClosed,
  cardExists,
  cardNotFound,
  unknownAccount,
  unknownUsageGroup,
} from './card.problems';
import { CardRefs } from './card-refs';
import { CardRepository } from './card.repository';
import type { ChangeCardStatusBody, CreateCardBody } from './card.schemas';
import { cardStatusTransition } from '../domain/card-status';

/** Cards of a tenant: provisioning and status. Their settings are CardSettingsService's. */
@Injectable()
export class CardsService {
  constructor(
    private readonly cards: CardRepository,
    private readonly accounts: AccountRepository,
    private readonly usageGroups: UsageGroupRepository,
    private readonly uow: UnitOfWork,
    private readonly refs: CardRefs,
  ) {}

  async createCard(principal: Principal, body: z.infer<typeof CreateCardBody>) {
    const created = await this.uow.run(async ({ manager }) => {
      const tenantId = principal.tenantId;
      const account = await this.accounts.findByAccountId(manager, tenantId, body.accountId);
      if (!account) throw unknownAccount(body.accountId);
      if (!acceptsNewCards(account)) throw accountClosed(body.accountId);
      // FOR SHARE: a concurrent change of the group waits, so the card's flags fit the group in force.
      const group = await this.usageGroups.lockForShare(manager, tenantId, body.usageGroup);
      if (!group) throw unknownUsageGroup(body.usageGroup);

      const profile = profileOf(body, group);
      let flags: Record<string, boolean>;
      if (body.settings) {
        assertSettingsAcceptable(
          body.settings.authorisationTypes,
          profile,
          { cardId: body.cardId, usageGroup: group.code },
          'settings.authorisationTypes',
        );
        flags = toFlags(body.settings.authorisationTypes);
      } else {
        flags = Object.fromEntries(applicableServiceCodes(profile).map((code) => [code, true]));
      }
      const card = await this.cards.createIfNew(manager, {
        tenantId,
        cardId: body.cardId,
        accountId: body.accountId,
        network: body.network,
        cardType: body.cardType,
        usageGroup: group.code,
        status: body.status,
        authorisationTypes: flags,
        renewable: body.settings?.renewable ?? true,
        xpaysAllowed: body.settings?.xpaysAllowed ?? false,
        settingsVersion: 1,
        settingsChangedAt: new Date(),
      });
      if (!card) throw cardExists(body.cardId);
      return mapCard(card, group);
    });
    // The account's card types changed with it.
    await this.refs.cardChanged(principal.tenantId, body.cardId, body.accountId);
    return created;
  }

  async getCard(principal: Principal, cardId: string) {
    const found = await this.cards.findWithUsageGroup(principal.tenantId, cardId);
    if (!found) throw cardNotFound(cardId);
    return mapCard(found.card, found.group);
  }

  /** Blocks, unblocks or closes a card; serialised with settings changes by the card's lock. */
  async changeStatus(principal: Principal, cardId: string, body: z.infer<typeof ChangeCardStatusBody>) {
    const { changed, view } = await this.uow.run(async ({ manager }) => {
      const locked = await this.cards.lockCardForChange(manager, principal.tenantId, cardId);
      if (!locked) throw cardNotFound(cardId);
      const { card, group } = locked;
      const transition = cardStatusTransition(card.status, body.status);
      if (transition.kind === 'refused') throw cardClosed(cardId);
      if (transition.kind === 'change') {
        card.status = body.status;
        await this.cards.updateStatus(manager, card.id, body.status);
      }
      return { changed: transition.kind === 'change', view: mapCard(card, group) };
    });
    if (changed) await this.refs.cardChanged(principal.tenantId, cardId, view.accountId);
    return view;
  }
}
