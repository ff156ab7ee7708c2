import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { CardApiRepository } from '../../card-api.repository';
import { LabelEntity } from './label.entity';
import { TransactionTypeEntity } from './transaction-type.entity';

export type TransactionTypeValues = Pick<TransactionTypeEntity, 'code' | 'name' | 'zeroAmountAllowed'>;
export type LabelValues = Pick<LabelEntity, 'code' | 'name'>;

type CatalogEntity = typeof TransactionTypeEntity | typeof LabelEntity;

/**
 * The tenant's catalogs: pricing.transaction_types and pricing.labels, both keyed by tenant and
 * code. Methods taking an EntityManager run in the caller's transaction.
 */
@Injectable()
export class CatalogRepository extends CardApiRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  listTransactionTypes(tenantId: string): Promise<TransactionTypeEntity[]> {
    return this.db.getRepository(TransactionTypeEntity).find({ where: { tenantId }, order: { code: 'ASC' } });
  }

  listLabels(tenantId: string): Promise<LabelEntity[]> {
    return this.db.getRepository(LabelEntity).find({ where: { tenantId }, order: { code: 'ASC' } });
  }

  /** Creates the type or replaces its name and flag. */
  async upsertTransactionType(
    row: TransactionTypeValues & { tenantId: string; updatedAt: Date },
  ): Promise<void> {
    await this.db.getRepository(TransactionTypeEntity).upsert(row, ['tenantId', 'code']);
  }

  /** Creates the label or replaces its name. */
  async upsertLabel(row: LabelValues & { tenantId: string; updatedAt: Date }): Promise<void> {
    await this.db.getRepository(LabelEntity).upsert(row, ['tenantId', 'code']);
  }

  /** Which of these codes the tenant's transaction-type catalog holds (no query for none). */
  findKnownTransactionTypeCodes(manager: EntityManager, tenantId: string, codes: readonly string[]) {
    return this.knownCodes(manager, TransactionTypeEntity, tenantId, codes);
  }

  /** Which of these codes the tenant's label catalog holds (no query for none). */
  findKnownLabelCodes(manager: EntityManager, tenantId: string, codes: readonly string[]) {
    return this.knownCodes(manager, LabelEntity, tenantId, codes);
  }

  /** Adds the types the tenant lacks; existing ones keep their name and flag. */
  insertMissingTransactionTypes(
    manager: EntityManager,
    tenantId: string,
    types: readonly TransactionTypeValues[],
  ) {
    return this.insertMissing(manager, TransactionTypeEntity, tenantId, types);
  }

  /** Adds the labels the tenant lacks; existing ones keep their name. */
  insertMissingLabels(manager: EntityManager, tenantId: string, labels: readonly LabelValues[]) {
    return this.insertMissing(manager, LabelEntity, tenantId, labels);
  }

  private async knownCodes(
    manager: EntityManager,
    entity: CatalogEntity,
    tenantId: string,
    codes: readonly string[],
  ): Promise<Set<string>> {
    if (codes.length === 0) return new Set();
    const rows = await manager.getRepository(entity).find({ where: { tenantId, code: In([...codes]) } });
    return new Set(rows.map((r) => r.code));
  }

  private async insertMissing(
    manager: EntityManager,
    entity: CatalogEntity,
    tenantId: string,
    entries: readonly object[],
  ): Promise<void> {
    await this.insertIgnoringConflicts<object>(
      manager,
      entity,
      entries.map((e) => ({ tenantId, ...e })),
    );
  }
}
