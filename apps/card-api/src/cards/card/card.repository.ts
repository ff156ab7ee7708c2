import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { queryPrepared } from '@fincore/database';
import { outboxInsertWhen, OutboxRows } from '@fincore/events';
import { CardApiRepository } from '../../card-api.repository';
import { changeRows, insertChangesSql, NewCardSettingsChange } from './card-settings-change.repository';
import type { AuthorisationFlags } from '../domain/card-settings';
import type { Network } from '../domain/service-codes';
import { UsageGroupEntity } from '../usage-groups/usage-group.entity';
import { UsageGroupRepository } from '../usage-groups/usage-group.repository';
import { CardEntity } from './card.entity';
import { CardStatus } from '../domain/card-status';
import type { CardType } from '../domain/card-type';

export type NewCard = Omit<CardEntity, 'id' | 'createdAt'>;

type Row = Record<string, unknown>;

/** A card with the usage group whose rules apply to it. */
export interface CardWithUsageGroup {
  card: CardEntity;
  group: UsageGroupEntity;
}

/** What other contexts of the card API (fee quotation, price lists) need to know of a card. */
export interface CardRef {
  cardId: string;
  accountId: string;
  network: Network;
  cardType: CardType;
  status: CardStatus;
}

/** A card's stored settings after a change. */
export type SettingsUpdate = Pick<
  CardEntity,
  'authorisationTypes' | 'renewable' | 'xpaysAllowed' | 'settingsVersion' | 'settingsChangedAt'
>;

/** The new flags and version of one card whose usage group changed. */
export interface FlagsUpdate {
  id: string;
  flags: AuthorisationFlags;
  version: number;
}

/**
 * The settings change as one statement, applied only while the card and its usage group are still
 * as read: the same version (every settings write increments it), group, network and a card not
 * closed, and the group's codes unchanged. The group is locked FOR SHARE before the card is
 * updated, the lock order of lockCardForChange, so a concurrent change of the group is serialised
 * with this one. The history row ($13) and the outbox rows ($14 on) are written only when the
 * card's row was.
 */
const CHANGE_SETTINGS_IF_UNCHANGED = `WITH g AS MATERIALIZED (
         SELECT 1 FROM cards.usage_groups
          WHERE tenant_id = $1 AND code = $2 AND allowed_service_codes = $3::text[]
            FOR SHARE),
       c AS (
         UPDATE cards.cards SET authorisation_types = $4, renewable = $5, xpays_allowed = $6,
                settings_version = $7, settings_changed_at = $8
          WHERE id = $9 AND tenant_id = $1 AND usage_group = $2 AND network = $10 AND status <> $11
            AND settings_version = $12 AND EXISTS (SELECT 1 FROM g)
         RETURNING 1),
       h AS (${insertChangesSql('$13')} WHERE EXISTS (SELECT 1 FROM c)),
       o AS (${outboxInsertWhen('c', 14)})
       SELECT count(*)::int AS applied FROM c`;

/** Plain SQL on purpose: this is on every settings change, where the query builder's cost shows. */
const UPDATE_SETTINGS = `UPDATE cards.cards SET authorisation_types = $2, renewable = $3, xpays_allowed = $4,
              settings_version = $5, settings_changed_at = $6
        WHERE id = $1`;

/** New flags and versions of many cards in one statement: a group may hold many cards. */
const UPDATE_FLAGS_OF_CARDS = `UPDATE cards.cards c SET authorisation_types = v.flags, settings_version = v.version, settings_changed_at = $2
         FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, flags jsonb, version integer)
        WHERE c.id = v.id`;

/** Plain SQL on purpose: this is on the fee quote's hot path, where the query builder's cost shows. */
const FIND_REF = `SELECT card_id, account_id, network, card_type, status FROM cards.cards WHERE tenant_id = $1 AND card_id = $2`;

/**
 * The card and its usage group in one statement, every column by name (see selectList); the
 * locked variant for a change of the card, the unlocked one for a change in one statement.
 */
function cardWithGroupSql(columns: string, locked: boolean): string {
  return `SELECT ${columns}
         FROM cards.usage_groups g JOIN cards.cards c ON c.tenant_id = g.tenant_id AND c.usage_group = g.code
        WHERE c.tenant_id = $1 AND c.card_id = $2${locked ? '\n          FOR SHARE OF g FOR UPDATE OF c' : ''}`;
}

/**
 * The one owner of `cards.cards` (the settings live on the card's row; their history has its own
 * repository).
 *
 * Lock order of the card context, so that no two changes deadlock: the usage group first (FOR SHARE
 * to change a card, FOR UPDATE to change the group), then the card or the group's cards FOR UPDATE
 * in id order.
 */
@Injectable()
export class CardRepository extends CardApiRepository {
  private built?: Record<string, string>;

  constructor(
    @InjectDataSource() db: DataSource,
    private readonly usageGroups: UsageGroupRepository,
  ) {
    super(db);
  }

  /** Inserts the card and returns it, or null when the tenant already has one of that id. */
  async createIfNew(manager: EntityManager, card: NewCard): Promise<CardEntity | null> {
    if (!(await this.insertIgnoringConflicts(manager, CardEntity, [card]))) return null;
    return manager
      .getRepository(CardEntity)
      .findOneByOrFail({ tenantId: card.tenantId, cardId: card.cardId });
  }

  /** Inserts the cards whose ids are free and leaves the others as they are (demo data). */
  async createMissing(manager: EntityManager, cards: NewCard[]): Promise<void> {
    await this.insertIgnoringConflicts(manager, CardEntity, cards);
  }

  listByTenant(manager: EntityManager, tenantId: string): Promise<CardEntity[]> {
    return manager.getRepository(CardEntity).find({ where: { tenantId }, order: { cardId: 'ASC' } });
  }

  /** The card and its usage group as committed, unlocked: the group first, then the card. */
  async findWithUsageGroup(tenantId: string, cardId: string): Promise<CardWithUsageGroup | null> {
    const group = await this.usageGroups.findGroupOfCard(tenantId, cardId);
    const card = group && (await this.db.getRepository(CardEntity).findOne({ where: { tenantId, cardId } }));
    return group && card ? { card, group } : null;
  }

  /**
   * The card and its usage group, for a change of the card (its settings or its status), in one
   * statement: the group FOR SHARE, so a concurrent change of the group waits and the rules checked
   * stay in force, and the card FOR UPDATE, so changes of one card run one after the other.
   * PostgreSQL locks the rows in the order of the locking clauses: the group first. Joins the usage
   * groups' table to save a round trip on every settings change.
   */
  async lockCardForChange(
    manager: EntityManager,
    tenantId: string,
    cardId: string,
  ): Promise<CardWithUsageGroup | null> {
    const rows = (await manager.query(this.statements.lockCardForChange, [tenantId, cardId])) as Row[];
    return this.cardWithGroup(rows);
  }

  /**
   * The card and its usage group as committed, unlocked, in one statement: what a change of the
   * card's settings in one statement is checked against (see changeSettingsIfUnchanged).
   */
  async readCardForChange(tenantId: string, cardId: string): Promise<CardWithUsageGroup | null> {
    const rows = (await this.db.query(this.statements.readCardForChange, [tenantId, cardId])) as Row[];
    return this.cardWithGroup(rows);
  }

  private cardWithGroup([row]: Row[]): CardWithUsageGroup | null {
    return row
      ? { card: this.entityFrom(CardEntity, row, 'c'), group: this.entityFrom(UsageGroupEntity, row, 'g') }
      : null;
  }

  /** The hand-written statements, built once: their select lists come from the entities. */
  get statements(): Record<string, string> {
    const columns = () => `${this.selectList(UsageGroupEntity, 'g')}, ${this.selectList(CardEntity, 'c')}`;
    return (this.built ??= {
      lockCardForChange: cardWithGroupSql(columns(), true),
      readCardForChange: cardWithGroupSql(columns(), false),
      changeSettingsIfUnchanged: CHANGE_SETTINGS_IF_UNCHANGED,
      updateSettings: UPDATE_SETTINGS,
      updateFlagsOfCards: UPDATE_FLAGS_OF_CARDS,
      findRef: FIND_REF,
    });
  }

  /**
   * The settings change, its history row and its events as one statement (CHANGE_SETTINGS_IF_UNCHANGED),
   * applied only while the card and its group are still as `expected` says. True when it applied.
   */
  async changeSettingsIfUnchanged(
    expected: CardWithUsageGroup,
    settings: SettingsUpdate,
    history: NewCardSettingsChange,
    outbox: OutboxRows,
  ): Promise<boolean> {
    const { card, group } = expected;
    const [{ applied }] = await queryPrepared<{ applied: number }>(this.db, CHANGE_SETTINGS_IF_UNCHANGED, [
      card.tenantId,
      group.code,
      group.allowedServiceCodes,
      JSON.stringify(settings.authorisationTypes),
      settings.renewable,
      settings.xpaysAllowed,
      settings.settingsVersion,
      settings.settingsChangedAt,
      card.id,
      card.network,
      CardStatus.CLOSED,
      card.settingsVersion,
      changeRows([history]),
      ...outbox,
    ]);
    return applied > 0;
  }

  /** The cards of a usage group, locked FOR UPDATE in id order; the caller holds the group FOR UPDATE. */
  lockCardsOfUsageGroup(manager: EntityManager, tenantId: string, usageGroup: string): Promise<CardEntity[]> {
    return manager.getRepository(CardEntity).find({
      where: { tenantId, usageGroup },
      order: { id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
  }

  async updateStatus(manager: EntityManager, id: string, status: CardStatus): Promise<void> {
    await manager.getRepository(CardEntity).update({ id }, { status });
  }

  async updateSettings(manager: EntityManager, id: string, settings: SettingsUpdate): Promise<void> {
    await manager.query(UPDATE_SETTINGS, [
      id,
      JSON.stringify(settings.authorisationTypes),
      settings.renewable,
      settings.xpaysAllowed,
      settings.settingsVersion,
      settings.settingsChangedAt,
    ]);
  }

  async updateFlagsOfCards(manager: EntityManager, updates: FlagsUpdate[], changedAt: Date): Promise<void> {
    await manager.query(UPDATE_FLAGS_OF_CARDS, [JSON.stringify(updates), changedAt]);
  }

  async findRef(tenantId: string, cardId: string): Promise<CardRef | null> {
    const [row] = (await this.db.query(FIND_REF, [tenantId, cardId])) as Array<{
      card_id: string;
      account_id: string;
      network: Network;
      card_type: CardType;
      status: CardStatus;
    }>;
    return row
      ? {
          cardId: row.card_id,
          accountId: row.account_id,
          network: row.network,
          cardType: row.card_type,
          status: row.status,
        }
      : null;
  }
}
