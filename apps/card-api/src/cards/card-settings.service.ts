import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, LessThan } from 'typeorm';
import type { z } from 'zod';
import { Principal, ProblemException, requestContext } from '@fincore/platform';
import { Transaction, UnitOfWork } from '@fincore/events';
import type { ChangeCardSettingsBody, HistoryQuery } from './cards.schemas';
import {
  CardSettings,
  changedFields,
  decideAuthorisation,
  flagsWithinGroup,
  SettingsChangeCause,
  settingsInForce,
  toFlags,
} from './domain/card-settings';
import { isServiceCode } from './domain/service-codes';
import { CardSettingsChangeEntity } from './entities/card-settings-change.entity';
import { CardEntity } from './entities/card.entity';
import { UsageGroupEntity } from './entities/usage-group.entity';
import { profileOf, settingsOf, toHistoryEntry, toSettingsView } from './mapper';
import { assertSettingsAcceptable } from './settings-problems';

/** History rows per INSERT when a usage-group change touches many cards (10 parameters a row). */
const HISTORY_INSERT_BATCH = 1000;

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
    @InjectDataSource() private readonly db: DataSource,
    private readonly uow: UnitOfWork,
  ) {}

  async getSettings(principal: Principal, cardId: string) {
    const { card, group } = await this.findCard(this.db.manager, principal.tenantId, cardId);
    return toSettingsView(card, group);
  }

  /**
   * Replaces the card's settings with the requested ones. The card row is locked first, so
   * concurrent changes of one card run one after the other, each seeing the previous one's result.
   */
  async changeSettings(principal: Principal, cardId: string, body: z.infer<typeof ChangeCardSettingsBody>) {
    return this.uow.run(async (tx) => {
      const { card, group } = await this.findCard(tx.manager, principal.tenantId, cardId, true);
      if (card.status === 'CLOSED') throw new ProblemException('card_closed', 409, { cardId });
      const profile = profileOf(card, group);
      assertSettingsAcceptable(body.authorisationTypes, profile, { cardId, usageGroup: group.code });

      const previous = settingsOf(card, group);
      const current = settingsInForce(
        toFlags(body.authorisationTypes),
        profile,
        body.renewable,
        body.xpaysAllowed,
      );
      const changed = changedFields(previous, current);
      if (changed.length === 0) return current;

      const version = card.settingsVersion + 1;
      const changedAt = new Date();
      await tx.manager.getRepository(CardEntity).update(
        { id: card.id },
        {
          // Only the group's codes are kept: a code the group allows again later starts as not allowed.
          authorisationTypes: toFlags(body.authorisationTypes),
          renewable: body.renewable,
          xpaysAllowed: body.xpaysAllowed,
          settingsVersion: version,
          settingsChangedAt: changedAt,
        },
      );
      await this.record(tx, principal, 'SETTINGS_CHANGE', changedAt, [
        { cardId, version, previous, current, changedFields: changed },
      ]);
      return current;
    });
  }

  /**
   * A usage-group change alters the settings in force of the group's cards: codes it drops vanish
   * from them (their flags too), codes it adds appear as not allowed. Each card whose settings in
   * force differ gets a new version, a history entry and a CARD_SETTINGS_CHANGED, in the group
   * change's transaction. The caller holds the group FOR UPDATE; cards are then locked in id order,
   * after the group, as a settings change locks them.
   */
  async applyUsageGroupChange(
    tx: Transaction,
    principal: Principal,
    previousCodes: readonly string[],
    group: UsageGroupEntity,
  ): Promise<void> {
    const cards = await tx.manager.getRepository(CardEntity).find({
      where: { tenantId: principal.tenantId, usageGroup: group.code },
      order: { id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
    const changedAt = new Date();
    const changes = cards.flatMap((card) => {
      const previous = settingsInForce(
        card.authorisationTypes,
        { network: card.network, usageGroupCodes: previousCodes },
        card.renewable,
        card.xpaysAllowed,
      );
      const flags = flagsWithinGroup(card.authorisationTypes, group.allowedServiceCodes);
      const current = settingsInForce(flags, profileOf(card, group), card.renewable, card.xpaysAllowed);
      const changed = changedFields(previous, current);
      if (changed.length === 0) return [];
      const record: SettingsChangeRecord = {
        cardId: card.cardId,
        version: card.settingsVersion + 1,
        previous,
        current,
        changedFields: changed,
      };
      return [{ id: card.id, flags, record }];
    });
    if (changes.length === 0) return;
    // Set-based: a group may hold many cards, and this runs while the group is locked.
    await tx.manager.query(
      `UPDATE cards.cards c SET authorisation_types = v.flags, settings_version = v.version, settings_changed_at = $2
         FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, flags jsonb, version integer)
        WHERE c.id = v.id`,
      [
        JSON.stringify(changes.map(({ id, flags, record }) => ({ id, flags, version: record.version }))),
        changedAt,
      ],
    );
    await this.record(
      tx,
      principal,
      'USAGE_GROUP_CHANGE',
      changedAt,
      changes.map((c) => c.record),
    );
  }

  /**
   * The audit trail and the events of effective changes, in the caller's transaction: a history
   * entry (who, which request, when) and a CARD_SETTINGS_CHANGED per card, inserted in batches.
   */
  private async record(
    tx: Transaction,
    principal: Principal,
    cause: SettingsChangeCause,
    changedAt: Date,
    changes: SettingsChangeRecord[],
  ): Promise<void> {
    const requestId = requestContext.requestId() ?? null;
    for (let i = 0; i < changes.length; i += HISTORY_INSERT_BATCH) {
      await tx.manager.getRepository(CardSettingsChangeEntity).insert(
        changes.slice(i, i + HISTORY_INSERT_BATCH).map((change) => ({
          ...change,
          tenantId: principal.tenantId,
          cause,
          tokenId: principal.tokenId,
          requestId,
          changedAt,
        })),
      );
    }
    await tx.emitAll(
      'CARD_SETTINGS_CHANGED',
      principal.tenantCode,
      changes.map(({ cardId, changedFields, previous, current }) => ({
        cardId,
        changedFields,
        cause,
        previous,
        current,
      })),
    );
  }

  async history(principal: Principal, cardId: string, query: z.infer<typeof HistoryQuery>) {
    await this.findCard(this.db.manager, principal.tenantId, cardId);
    const rows = await this.db.getRepository(CardSettingsChangeEntity).find({
      where: {
        tenantId: principal.tenantId,
        cardId,
        ...(query.beforeVersion ? { version: LessThan(query.beforeVersion) } : {}),
      },
      order: { version: 'DESC' },
      take: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    return {
      cardId,
      items: page.map(toHistoryEntry),
      nextBeforeVersion: rows.length > query.limit ? page[page.length - 1].version : null,
    };
  }

  /** Whether an authorisation with the service code may go through now, from the committed settings. */
  async checkAuthorisation(principal: Principal, cardId: string, serviceCode: string) {
    if (!isServiceCode(serviceCode)) {
      throw new ProblemException('unknown_service_code', 400, { serviceCodes: [serviceCode] }, [
        { field: 'serviceCode', message: `not a service code: ${serviceCode}`, code: 'unknown_service_code' },
      ]);
    }
    const { card, group } = await this.findCard(this.db.manager, principal.tenantId, cardId);
    const decision = decideAuthorisation(
      { ...profileOf(card, group), status: card.status, flags: card.authorisationTypes },
      serviceCode,
    );
    return { cardId, serviceCode, ...decision, settingsVersion: card.settingsVersion };
  }

  /**
   * The card and its usage group. While changing, the group is locked FOR SHARE first (a concurrent
   * edit of the group waits, so the rules checked are those in force), then the card FOR UPDATE:
   * group before card, the order a usage-group update takes, so the two never deadlock.
   */
  private async findCard(manager: EntityManager, tenantId: string, cardId: string, lock = false) {
    const groupOfCard = manager
      .getRepository(UsageGroupEntity)
      .createQueryBuilder('g')
      .where('g.tenant_id = :tenantId', { tenantId })
      .andWhere(
        'g.code = (SELECT c.usage_group FROM cards.cards c WHERE c.tenant_id = :tenantId AND c.card_id = :cardId)',
        { cardId },
      );
    const group = await (lock ? groupOfCard.setLock('pessimistic_read') : groupOfCard).getOne();
    const card =
      group &&
      (await manager.getRepository(CardEntity).findOne({
        where: { tenantId, cardId },
        ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
      }));
    if (!group || !card) throw new ProblemException('card_not_found', 404, { cardId });
    return { card, group };
  }
}
