import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, LessThan } from 'typeorm';
import { TenantScopedRepository } from '../tenant-scoped.repository';
import { CardSettingsChangeEntity } from './card-settings-change.entity';

export type NewCardSettingsChange = Omit<CardSettingsChangeEntity, 'id'>;

/** History rows per INSERT when a usage-group change touches many cards (10 parameters a row). */
const INSERT_BATCH = 1000;

/** The one owner of `cards.card_settings_changes`, the audit trail of card settings. */
@Injectable()
export class CardSettingsChangeRepository extends TenantScopedRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  /** Appends the changes in the caller's transaction, in batches of INSERT_BATCH rows. */
  async append(manager: EntityManager, changes: NewCardSettingsChange[]): Promise<void> {
    for (let i = 0; i < changes.length; i += INSERT_BATCH) {
      await manager.getRepository(CardSettingsChangeEntity).insert(changes.slice(i, i + INSERT_BATCH));
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
