import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CardApiRepository } from '../../card-api.repository';
import { ExchangeRateEntity } from './exchange-rate.entity';

export type ExchangeRateValues = Pick<
  ExchangeRateEntity,
  'baseCurrency' | 'quoteCurrency' | 'validFrom' | 'rate'
>;

/** pricing.exchange_rates: the tenant's rate of each currency pair from each date. */
@Injectable()
export class ExchangeRateRepository extends CardApiRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  listForTenant(tenantId: string): Promise<ExchangeRateEntity[]> {
    return this.db.getRepository(ExchangeRateEntity).find({
      where: { tenantId },
      order: { baseCurrency: 'ASC', quoteCurrency: 'ASC', validFrom: 'ASC' },
    });
  }

  /** Sets the pair's rate from a date, replacing the rate of that same date if there is one. */
  async upsert(row: ExchangeRateValues & { tenantId: string; updatedAt: Date }): Promise<void> {
    await this.db
      .getRepository(ExchangeRateEntity)
      .upsert(row, ['tenantId', 'baseCurrency', 'quoteCurrency', 'validFrom']);
  }

  /** Adds the rates the tenant lacks (in the caller's transaction); existing ones stay as they are. */
  async insertMissing(
    manager: EntityManager,
    tenantId: string,
    rates: readonly ExchangeRateValues[],
  ): Promise<void> {
    await this.insertIgnoringConflicts(
      manager,
      ExchangeRateEntity,
      rates.map((r) => ({ tenantId, ...r })),
    );
  }
}
