import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Principal, ProblemException, requestContext } from '@fincore/platform';
import { Transaction, UnitOfWork } from '@fincore/events';
import { CardRepository, FlagsUpdate } from '../cards/card.repository';
import { CardStatus } from '../cards/domain/card-status';
import { isServiceCode } from '../service-codes/domain/service-codes';
import type { UsageGroupEntity } from '../usage-groups/usage-group.entity';
import { CardSettingsChangeRepository } from './card-settings-change.repository';
import { mapAuthorisationCheck, mapHistoryPage, mapSettingsView } from './card-settings.mapper';
import type { ChangeCardSettingsBody, HistoryQuery } from './card-settings.schemas';
import {
  CardSettings,
  changedFields,
  decideAuthorisation,
  flagsWithinGroup,
  profileOf,
  SettingsChangeCause,
  settingsInForce,
  settingsOf,
  toFlags,
} from './domain/card-settings';
import { assertSettingsAcceptable } from './settings-problems';

/** One card's effective change, as the history and the event tell it. */
interface SettingsChangeRecord {
  cardId: string;
  version: number;
  previous: CardSettings;
  current: CardSettings;
  changedFields: string[];
}

/**
 * Card settings: the change (all or nothing, serialised per card), the settings in force, their
 * history, and the authorisation check. Everything reads PostgreSQL, never a process cache, so a
 * change is visible to every replica as soon as its response is sent.
 */
@Injectable()
export class CardSettingsService {
  constructor(
    private readonly cards: CardRepository,
    private readonly history: CardSettingsChangeRepository,
    private readonly uow: UnitOfWork,
  ) {}

  async getSettings(principal: Principal, cardId: string) {
    const { card, group } = await this.findCard(principal, cardId);
    return mapSettingsView(card, group);
  }

  /**
   * Replaces the card's settings with the requested ones. The card is locked for the change, so
   * concurrent changes of one card run one after the other, each seeing the previous one's result.
   */
  async changeSettings(principal: Principal, cardId: string, body: z.infer<typeof ChangeCardSettingsBody>) {
    return this.uow.run(async (tx) => {
      const locked = await this.cards.lockCardForChange(tx.manager, principal.tenantId, cardId);
      if (!locked) throw new ProblemException('card_not_found', 404, { cardId });
      const { card, group } = locked;
      if (card.status === CardStatus.CLOSED) throw new ProblemException('card_closed', 409, { cardId });
      const profile = profileOf(card, group);
      assertSettingsAcceptable(body.authorisationTypes, profile, { cardId, usageGroup: group.code });

      const previous = settingsOf(card, group);
      // Only the group's codes are kept: a code the group allows again later starts as not allowed.
      const flags = toFlags(body.authorisationTypes);
      const current = settingsInForce(flags, profile, body.renewable, body.xpaysAllowed);
      const changed = changedFields(previous, current);
      if (changed.length === 0) return current;

      const version = card.settingsVersion + 1;
      const changedAt = new Date();
      // Issued together: the connection sends each write as soon as the previous one is done,
      // instead of waiting for this process's event loop while the card stays locked.
      await Promise.all([
        this.cards.updateSettings(tx.manager, card.id, {
          authorisationTypes: flags,
          renewable: body.renewable,
          xpaysAllowed: body.xpaysAllowed,
          settingsVersion: version,
          settingsChangedAt: changedAt,
        }),
        this.record(tx, principal, SettingsChangeCause.SETTINGS_CHANGE, changedAt, [
          { cardId, version, previous, current, changedFields: changed },
        ]),
      ]);
      return current;
    });
  }

  /**
   * A usage-group change alters the settings in force of the group's cards: codes it drops vanish
   * from them (their flags too), codes it adds appear as not allowed. Each card whose settings in
   * force differ gets a new version, a history entry and a CARD_SETTINGS_CHANGED, in the group
   * change's transaction. The caller holds the group FOR UPDATE; its cards are locked after it.
   */
  async applyUsageGroupChange(
    tx: Transaction,
    principal: Principal,
    previousCodes: readonly string[],
    group: UsageGroupEntity,
  ): Promise<void> {
    const cards = await this.cards.lockCardsOfUsageGroup(tx.manager, principal.tenantId, group.code);
    const changedAt = new Date();
    const changes = cards.flatMap((card) => {
      const previous = settingsOf(card, { allowedServiceCodes: previousCodes });
      const flags = flagsWithinGroup(card.authorisationTypes, group.allowedServiceCodes);
      const current = settingsInForce(flags, profileOf(card, group), card.renewable, card.xpaysAllowed);
      const changed = changedFields(previous, current);
      if (changed.length === 0) return [];
      const version = card.settingsVersion + 1;
      const update: FlagsUpdate = { id: card.id, flags, version };
      const record: SettingsChangeRecord = {
        cardId: card.cardId,
        version,
        previous,
        current,
        changedFields: changed,
      };
      return [{ update, record }];
    });
    if (changes.length === 0) return;
    // Set-based: a group may hold many cards, and this runs while the group is locked.
    await this.cards.updateFlagsOfCards(
      tx.manager,
      changes.map((c) => c.update),
      changedAt,
    );
    await this.record(
      tx,
      principal,
      SettingsChangeCause.USAGE_GROUP_CHANGE,
      changedAt,
      changes.map((c) => c.record),
    );
  }

  async listHistory(principal: Principal, cardId: string, query: z.infer<typeof HistoryQuery>) {
    await this.findCard(principal, cardId);
    const rows = await this.history.findNewestFirst(
      principal.tenantId,
      cardId,
      query.limit + 1,
      query.beforeVersion,
    );
    return mapHistoryPage(cardId, rows.slice(0, query.limit), rows.length > query.limit);
  }

  /** Whether an authorisation with the service code may go through now, from the committed settings. */
  async checkAuthorisation(principal: Principal, cardId: string, serviceCode: string) {
    if (!isServiceCode(serviceCode)) {
      throw new ProblemException('unknown_service_code', 400, { serviceCodes: [serviceCode] }, [
        { field: 'serviceCode', message: `not a service code: ${serviceCode}`, code: 'unknown_service_code' },
      ]);
    }
    const { card, group } = await this.findCard(principal, cardId);
    const decision = decideAuthorisation(
      { ...profileOf(card, group), status: card.status, flags: card.authorisationTypes },
      serviceCode,
    );
    return mapAuthorisationCheck(card, serviceCode, decision);
  }

  /**
   * The audit trail and the events of effective changes, in the caller's transaction: a history
   * entry (who, which request, when) and a CARD_SETTINGS_CHANGED per card.
   */
  private async record(
    tx: Transaction,
    principal: Principal,
    cause: SettingsChangeCause,
    changedAt: Date,
    changes: SettingsChangeRecord[],
  ): Promise<void> {
    const requestId = requestContext.requestId() ?? null;
    // Independent rows of one transaction: a failing one aborts it, and the unit of work rolls back.
    await Promise.all([
      this.history.append(
        tx.manager,
        changes.map((change) => ({
          ...change,
          tenantId: principal.tenantId,
          cause,
          tokenId: principal.tokenId,
          requestId,
          changedAt,
        })),
      ),
      tx.emitAll(
        'CARD_SETTINGS_CHANGED',
        principal.tenantCode,
        changes.map(({ cardId, changedFields, previous, current }) => ({
          cardId,
          changedFields,
          cause,
          previous,
          current,
        })),
      ),
    ]);
  }

  private async findCard(principal: Principal, cardId: string) {
    const found = await this.cards.findWithUsageGroup(principal.tenantId, cardId);
    if (!found) throw new ProblemException('card_not_found', 404, { cardId });
    return found;
  }
}
