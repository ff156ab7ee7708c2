import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Principal, ProblemException, requestContext } from '@fincore/platform';
import { EventData, OutboxRows, Transaction, UnitOfWork } from '@fincore/events';
import { CardEntity } from '../card/card.entity';
import { cardClosed, cardNotFound } from '../card/card.problems';
import { unknownServiceCode } from '../card/card-settings.problems';
import { CardRepository, CardWithUsageGroup, FlagsUpdate, SettingsUpdate } from '../card/card.repository';
import { CardStatus } from '../domain/card-status';
import { isServiceCode } from '../domain/service-codes';
import type { UsageGroupEntity } from '../usage-groups/usage-group.entity';
import { UsageGroupCards } from '../usage-groups/usage-group-cards';
import { CardSettingsChangeRepository, NewCardSettingsChange } from '../card/card-settings-change.repository';
import { KnownCards } from './known-cards';
import { mapAuthorisationCheck, mapHistoryPage, mapSettingsView } from './card-settings.mapper';
import type { ChangeCardSettingsBody } from '../card/card.schemas';
import type { HistoryQuery } from './card-settings.schemas';
import {
  AuthorisationFlags,
  CardSettings,
  changedFields,
  decideAuthorisation,
  flagsWithinGroup,
  profileOf,
  SettingsChangeCause,
  settingsInForce,
  settingsOf,
  toFlags,
} from '../domain/card-settings';
import { assertSettingsAcceptable } from '../card/settings-problems';

type ChangeBody = z.infer<typeof ChangeCardSettingsBody>;

/** What a requested change makes of a card's settings. */
interface ChangePlan {
  previous: CardSettings;
  flags: AuthorisationFlags;
  current: CardSettings;
  /** Empty for a no-op. */
  changed: string[];
}

/**
 * The requested change checked against the card's rules and applied to its settings; throws the
 * refusals (card_closed, the service-code problems).
 */
function planChange({ card, group }: CardWithUsageGroup, body: ChangeBody): ChangePlan {
  if (card.status === CardStatus.CLOSED) throw cardClosed(card.cardId);
  const profile = profileOf(card, group);
  assertSettingsAcceptable(body.authorisationTypes, profile, { cardId: card.cardId, usageGroup: group.code });
  const previous = settingsOf(card, group);
  // Only the group's codes are kept: a code the group allows again later starts as not allowed.
  const flags = toFlags(body.authorisationTypes);
  const current = settingsInForce(flags, profile, body.renewable, body.xpaysAllowed);
  return { previous, flags, current, changed: changedFields(previous, current) };
}

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
 * history, and the authorisation check. Every answer comes from PostgreSQL, never a process cache,
 * so a change is visible to every replica as soon as its response is sent: what a replica keeps of
 * a card only spares a change its read, and the change applies only if the card is still so.
 */
@Injectable()
export class CardSettingsService implements UsageGroupCards {
  private readonly known = new KnownCards();

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
   * Replaces the card's settings with the requested ones. Changes of one card apply one after the
   * other, each seeing the previous one's result. An effective change goes as one statement,
   * checked against the card as this replica last knew it (or as read now) and applied only while
   * the card is still so; otherwise, and for refusals and no-ops, the card is locked for the change
   * (see UnitOfWork.changeAsReadOrLocked).
   */
  changeSettings(principal: Principal, cardId: string, body: ChangeBody): Promise<CardSettings> {
    return this.uow.changeAsReadOrLocked({
      read: async () =>
        this.known.get(principal.tenantId, cardId) ??
        (await this.cards.readCardForChange(principal.tenantId, cardId)),
      plan: (read) => this.planInOneStatement(principal, read, body),
      locked: (tx) => this.changeLocked(tx, principal, cardId, body),
    });
  }

  /**
   * The change checked against the card as read, as one statement. Undefined for a refusal or a
   * no-op, whose answer must come from the card as locked.
   */
  private planInOneStatement(principal: Principal, read: CardWithUsageGroup, body: ChangeBody) {
    let plan: ChangePlan;
    try {
      plan = planChange(read, body);
    } catch (error) {
      if (error instanceof ProblemException) return undefined;
      throw error;
    }
    if (plan.changed.length === 0) return undefined;
    const update = this.settingsUpdate(read.card, plan, body);
    const record = this.changeRecord(read.card.cardId, update.settingsVersion, plan);
    const cause = SettingsChangeCause.SETTINGS_CHANGE;
    const [history] = this.historyRows(principal, cause, update.settingsChangedAt, [record]);
    return {
      type: 'CARD_SETTINGS_CHANGED' as const,
      tenantCode: principal.tenantCode,
      data: [this.eventData(cause, record)],
      write: async (outbox: OutboxRows) => {
        if (!(await this.cards.changeSettingsIfUnchanged(read, update, history, outbox))) {
          this.known.forget(principal.tenantId, read.card.cardId);
          return null;
        }
        this.known.rememberChanged(read, update);
        return plan.current;
      },
    };
  }

  /** The change with the card locked: the group FOR SHARE, then the card FOR UPDATE. */
  private async changeLocked(
    tx: Transaction,
    principal: Principal,
    cardId: string,
    body: ChangeBody,
  ): Promise<CardSettings> {
    const locked = await this.cards.lockCardForChange(tx.manager, principal.tenantId, cardId);
    if (!locked) throw cardNotFound(cardId);
    this.known.remember(locked);
    const plan = planChange(locked, body);
    if (plan.changed.length === 0) return plan.current;
    const update = this.settingsUpdate(locked.card, plan, body);
    // Only a guess for the next change, whose statement falls back here if this does not commit.
    this.known.rememberChanged(locked, update);
    // Issued together: the connection sends each write as soon as the previous one is done,
    // instead of waiting for this process's event loop while the card stays locked.
    await Promise.all([
      this.cards.updateSettings(tx.manager, locked.card.id, update),
      this.record(tx, principal, SettingsChangeCause.SETTINGS_CHANGE, update.settingsChangedAt, [
        this.changeRecord(cardId, update.settingsVersion, plan),
      ]),
    ]);
    return plan.current;
  }

  private settingsUpdate(card: CardEntity, plan: ChangePlan, body: ChangeBody): SettingsUpdate {
    return {
      authorisationTypes: plan.flags,
      renewable: body.renewable,
      xpaysAllowed: body.xpaysAllowed,
      settingsVersion: card.settingsVersion + 1,
      settingsChangedAt: new Date(),
    };
  }

  private changeRecord(cardId: string, version: number, plan: ChangePlan): SettingsChangeRecord {
    return { cardId, version, previous: plan.previous, current: plan.current, changedFields: plan.changed };
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
      throw unknownServiceCode(serviceCode);
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
    // Independent rows of one transaction: a failing one aborts it, and the unit of work rolls back.
    await Promise.all([
      this.history.append(tx.manager, this.historyRows(principal, cause, changedAt, changes)),
      tx.emitAll(
        'CARD_SETTINGS_CHANGED',
        principal.tenantCode,
        changes.map((change) => this.eventData(cause, change)),
      ),
    ]);
  }

  /** The history entries of effective changes: who, which request, when. */
  private historyRows(
    principal: Principal,
    cause: SettingsChangeCause,
    changedAt: Date,
    changes: SettingsChangeRecord[],
  ): NewCardSettingsChange[] {
    const requestId = requestContext.requestId() ?? null;
    return changes.map((change) => ({
      ...change,
      tenantId: principal.tenantId,
      cause,
      tokenId: principal.tokenId,
      requestId,
      changedAt,
    }));
  }

  private eventData(
    cause: SettingsChangeCause,
    { cardId, changedFields, previous, current }: SettingsChangeRecord,
  ): EventData<'CARD_SETTINGS_CHANGED'> {
    return { cardId, changedFields, cause, previous, current };
  }

  private async findCard(principal: Principal, cardId: string) {
    const found = await this.cards.findWithUsageGroup(principal.tenantId, cardId);
    if (!found) throw cardNotFound(cardId);
    return found;
  }
}
