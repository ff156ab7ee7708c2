import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, LessThan } from 'typeorm';
import { CardApiRepository } from '../../card-api.repository';
import { CardSettingsChangeEntity } from './card-settings-change.entity';

export type NewCardSettingsChange = Omit<CardSettingsChangeEntity, 'id'>;

/** History rows per INSERT when a usage-group change touches many cards. */
const INSERT_BATCH = 1000;

/** The history rows as insertChangesSql takes them: one parameter, whatever their number. */
export function changeRows(changes: NewCardSettingsChange[]): string {
  return JSON.stringify(
    changes.map((c) => ({
      tenant_id: c.tenantId,
      card_id: c.cardId,
      version: c.version,
      previous: c.previous,
      current: c.current,
      changed_fields: c.changedFields,
      cause: c.cause,
      token_id: c.tokenId,
      request_id: c.requestId,
      changed_at: c.changedAt,
    })),
  );
}

/**
 * The insert of history rows, their changeRows being the parameter `param`: run by append, and
 * by the one-statement settings change (CardRepository.changeSettingsIfUnchanged).
 */
export function insertChangesSql(param: string): string {
  return `INSERT INTO cards.card_settings_changes
           (tenant_id, card_id, version, previous, current, changed_fields, cause, token_id, request_id, changed_at)
         SELECT r.tenant_id, r.card_id, r.version, r.previous, r.current,
                ARRAY(SELECT jsonb_array_elements_text(r.changed_fields)), r.cause, r.token_id, r.request_id, r.changed_at
           FROM jsonb_to_recordset(${param}::jsonb) AS r(tenant_id uuid, card_id varchar, version integer, previous jsonb,
                current jsonb, changed_fields jsonb, cause varchar, token_id uuid, request_id varchar, changed_at timestamptz)`;
}

/** The one owner of `cards.card_settings_changes`, the audit trail of card settings. */
@Injectable()
export class CardSettingsChangeRepository extends CardApiRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  /**
   * Appends the changes in the caller's transaction, one statement per INSERT_BATCH rows. Plain SQL
   * on purpose: this is on every settings change, where the query builder's cost shows.
   */
  async append(manager: EntityManager, changes: NewCardSettingsChange[]): Promise<void> {
    for (let i = 0; i < changes.length; i += INSERT_BATCH) {
      await manager.query(insertChangesSql('$1'), [changeRows(changes.slice(i, i + INSERT_BATCH))]);
    }
  }

  /** Up to `take` changes of a card, newest first, only versions below `beforeVersion` when given. */
  findNewestFirst(
    tenantId: string,
    cardId: string,
    take: number,
    beforeVersion?: number,
  ): Promise<CardSettingsChangeEntity[]> {
    return this.db.getRepository(CardSettingsChangeEntity).find({
      where: { tenantId, cardId, ...(beforeVersion ? { version: LessThan(beforeVersion) } : {}) },
      order: { version: 'DESC' },
      take,
    });
  }
}
