import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CardApiRepository } from '../../card-api.repository';
import { UsageGroupEntity } from './usage-group.entity';

export type NewUsageGroup = Pick<UsageGroupEntity, 'tenantId' | 'code' | 'name' | 'allowedServiceCodes'>;

/**
 * The one owner of `cards.usage_groups`.
 *
 * Lock order of the card context: a usage group before any of its cards (see CardRepository).
 */
@Injectable()
export class UsageGroupRepository extends CardApiRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  /** Inserts the group and returns it, or null when the tenant already has one of that code. */
  async createIfNew(group: NewUsageGroup): Promise<UsageGroupEntity | null> {
    if (!(await this.insertIgnoringConflicts(this.db.manager, UsageGroupEntity, [group]))) return null;
    return this.db
      .getRepository(UsageGroupEntity)
      .findOneByOrFail({ tenantId: group.tenantId, code: group.code });
  }

  /** Inserts the groups whose codes are free and leaves the others as they are (demo data). */
  async createMissing(manager: EntityManager, groups: NewUsageGroup[]): Promise<void> {
    await this.insertIgnoringConflicts(manager, UsageGroupEntity, groups);
  }

  findByCode(tenantId: string, code: string): Promise<UsageGroupEntity | null> {
    return this.db.getRepository(UsageGroupEntity).findOne({ where: { tenantId, code } });
  }

  /** The tenant's groups by code; in the caller's transaction when given its manager. */
  listByTenant(manager: EntityManager, tenantId: string): Promise<UsageGroupEntity[]>;
  listByTenant(tenantId: string): Promise<UsageGroupEntity[]>;
  listByTenant(...args: [EntityManager, string] | [string]): Promise<UsageGroupEntity[]> {
    const [manager, tenantId] = args.length === 2 ? args : ([this.db.manager, ...args] as const);
    return manager.getRepository(UsageGroupEntity).find({ where: { tenantId }, order: { code: 'ASC' } });
  }

  /** The group, locked FOR SHARE: a concurrent change of the group waits until the caller commits. */
  lockForShare(manager: EntityManager, tenantId: string, code: string): Promise<UsageGroupEntity | null> {
    return manager
      .getRepository(UsageGroupEntity)
      .findOne({ where: { tenantId, code }, lock: { mode: 'pessimistic_read' } });
  }

  /** The group, locked FOR UPDATE before it is changed. */
  lockForUpdate(manager: EntityManager, tenantId: string, code: string): Promise<UsageGroupEntity | null> {
    return manager
      .getRepository(UsageGroupEntity)
      .findOne({ where: { tenantId, code }, lock: { mode: 'pessimistic_write' } });
  }

  save(manager: EntityManager, group: UsageGroupEntity): Promise<UsageGroupEntity> {
    return manager.getRepository(UsageGroupEntity).save(group);
  }

  /** The usage group of a card, found by the card's id in one statement. */
  findGroupOfCard(tenantId: string, cardId: string): Promise<UsageGroupEntity | null> {
    return this.groupOfCard(this.db.manager, tenantId, cardId).getOne();
  }

  private groupOfCard(manager: EntityManager, tenantId: string, cardId: string) {
    return manager
      .getRepository(UsageGroupEntity)
      .createQueryBuilder('g')
      .where('g.tenant_id = :tenantId', { tenantId })
      .andWhere(
        'g.code = (SELECT c.usage_group FROM cards.cards c WHERE c.tenant_id = :tenantId AND c.card_id = :cardId)',
        { cardId },
      );
  }
}
