import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { PriceListLevel } from '../domain/pricing-model';
import { PriceListEntity } from './price-list.entity';

/** Who a price list is for: the level fixes which owner column is set (CHECK price_lists_owner). */
export interface PriceListOwner {
  tenantId: string;
  level: PriceListLevel;
  accountId: string | null;
  cardId: string | null;
}

export type PriceListValues = PriceListOwner &
  Pick<PriceListEntity, 'code' | 'name' | 'validFrom' | 'validTo' | 'rules'> &
  Partial<Pick<PriceListEntity, 'updatedAt'>>;

export interface PriceListFilter {
  level?: PriceListLevel;
  accountId?: string;
  cardId?: string;
}

/** A write the database refused: a concurrent writer got there first. */
export class PriceListConflictError extends Error {
  constructor(readonly conflict: 'period_overlap' | 'code_taken') {
    super(`price list ${conflict}`);
    this.name = 'PriceListConflictError';
  }
}

const CONFLICTS = new Map<string | undefined, PriceListConflictError['conflict']>([
  ['price_lists_no_overlap', 'period_overlap'],
  ['price_lists_tenant_code', 'code_taken'],
]);

/**
 * pricing.price_lists. Methods taking an EntityManager run in the caller's transaction; inserts
 * and updates turn a violated exclusion or unique constraint into PriceListConflictError.
 */
@Injectable()
export class PriceListRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  list(tenantId: string, filter: PriceListFilter): Promise<PriceListEntity[]> {
    return this.db.getRepository(PriceListEntity).find({
      where: { tenantId, ...ownerColumns(filter) },
      order: { level: 'ASC', code: 'ASC', validFrom: 'ASC' },
    });
  }

  findById(tenantId: string, id: string): Promise<PriceListEntity | null> {
    return this.db.getRepository(PriceListEntity).findOne({ where: { tenantId, id } });
  }

  /** SELECT … FOR UPDATE: holds the list until the caller's transaction ends. */
  lockForReplace(manager: EntityManager, tenantId: string, id: string): Promise<PriceListEntity | null> {
    return manager
      .getRepository(PriceListEntity)
      .findOne({ where: { tenantId, id }, lock: { mode: 'pessimistic_write' } });
  }

  findByCode(manager: EntityManager, tenantId: string, code: string): Promise<PriceListEntity | null> {
    return manager.getRepository(PriceListEntity).findOne({ where: { tenantId, code } });
  }

  /** Any price list of level TENANT. */
  findTenantDefault(manager: EntityManager, tenantId: string): Promise<PriceListEntity | null> {
    return manager.getRepository(PriceListEntity).findOne({ where: { tenantId, level: 'TENANT' } });
  }

  /** Every list of the same owner at the same level (null owner columns need no filter). */
  findSameOwner(manager: EntityManager, owner: PriceListOwner): Promise<PriceListEntity[]> {
    return manager.getRepository(PriceListEntity).find({
      where: { tenantId: owner.tenantId, ...ownerColumns(owner) },
    });
  }

  insert(manager: EntityManager, values: PriceListValues): Promise<PriceListEntity> {
    const repo = manager.getRepository(PriceListEntity);
    return translateConflicts(() => repo.save(repo.create(values)));
  }

  /** Writes the new values and version, then reads the row back. */
  update(
    manager: EntityManager,
    tenantId: string,
    id: string,
    values: PriceListValues & { version: number },
  ): Promise<PriceListEntity> {
    const repo = manager.getRepository(PriceListEntity);
    return translateConflicts(async () => {
      await repo.update({ id, tenantId }, values);
      return repo.findOneOrFail({ where: { id, tenantId } });
    });
  }

  /** False when there was no such list. */
  async delete(manager: EntityManager, tenantId: string, id: string): Promise<boolean> {
    const { affected } = await manager.getRepository(PriceListEntity).delete({ tenantId, id });
    return Boolean(affected);
  }
}

/** Conditions on the owner columns given; an absent or null one is not filtered on. */
function ownerColumns(filter: PriceListFilter | PriceListOwner) {
  return {
    ...(filter.level ? { level: filter.level } : {}),
    ...(filter.accountId ? { accountId: filter.accountId } : {}),
    ...(filter.cardId ? { cardId: filter.cardId } : {}),
  };
}

async function translateConflicts<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const constraint =
      error instanceof QueryFailedError
        ? (error.driverError as { constraint?: string }).constraint
        : undefined;
    const conflict = CONFLICTS.get(constraint);
    if (conflict) throw new PriceListConflictError(conflict);
    throw error;
  }
}
