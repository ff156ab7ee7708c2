import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CardApiRepository } from '../../card-api.repository';
import type { CardType } from '../domain/card-type';
import { AccountEntity } from './account.entity';
import type { AccountStatus, AccountType } from '../domain/account';

export type NewAccount = Pick<AccountEntity, 'tenantId' | 'accountId' | 'type' | 'currencyCode' | 'status'>;

/** What other contexts of the card API (fee quotation) need to know of an account. */
export interface AccountRef {
  accountId: string;
  type: AccountType;
  currencyCode: string;
  status: AccountStatus;
  /** Distinct types of the cards on the account, sorted (the card rule of fee quotes needs them). */
  cardTypes: CardType[];
}

/**
 * The one owner of `cards.accounts`.
 */
@Injectable()
export class AccountRepository extends CardApiRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  /** Inserts the account and returns it, or null when the tenant already has one of that id. */
  async createIfNew(account: NewAccount): Promise<AccountEntity | null> {
    if (!(await this.insertIgnoringConflicts(this.db.manager, AccountEntity, [account]))) return null;
    return this.db
      .getRepository(AccountEntity)
      .findOneByOrFail({ tenantId: account.tenantId, accountId: account.accountId });
  }

  /** Inserts the accounts whose ids are free and leaves the others as they are (demo data). */
  async createMissing(manager: EntityManager, accounts: NewAccount[]): Promise<void> {
    await this.insertIgnoringConflicts(manager, AccountEntity, accounts);
  }

  /** The account, unlocked; in the caller's transaction when given its manager. */
  findByAccountId(manager: EntityManager, tenantId: string, accountId: string): Promise<AccountEntity | null>;
  findByAccountId(tenantId: string, accountId: string): Promise<AccountEntity | null>;
  findByAccountId(
    ...args: [EntityManager, string, string] | [string, string]
  ): Promise<AccountEntity | null> {
    const [manager, tenantId, accountId] = args.length === 3 ? args : ([this.db.manager, ...args] as const);
    return manager.getRepository(AccountEntity).findOne({ where: { tenantId, accountId } });
  }

  listByTenant(manager: EntityManager, tenantId: string): Promise<AccountEntity[]> {
    return manager.getRepository(AccountEntity).find({ where: { tenantId }, order: { accountId: 'ASC' } });
  }

  /**
   * The account and the types of its cards, in one round trip. Plain SQL on purpose: this is on the
   * fee quote's hot path, where the query builder's cost shows.
   */
  async findRef(tenantId: string, accountId: string): Promise<AccountRef | null> {
    const [row] = (await this.db.query(
      `SELECT a.account_id, a.type, a.currency_code, a.status,
              ARRAY(SELECT DISTINCT c.card_type::text FROM cards.cards c
                     WHERE c.tenant_id = a.tenant_id AND c.account_id = a.account_id ORDER BY 1) AS card_types
         FROM cards.accounts a
        WHERE a.tenant_id = $1 AND a.account_id = $2`,
      [tenantId, accountId],
    )) as Array<{
      account_id: string;
      type: AccountType;
      currency_code: string;
      status: AccountStatus;
      card_types: CardType[];
    }>;
    return row
      ? {
          accountId: row.account_id,
          type: row.type,
          currencyCode: row.currency_code,
          status: row.status,
          cardTypes: row.card_types,
        }
      : null;
  }
}
