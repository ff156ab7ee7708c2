import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccountEntity } from './entities/account.entity';
import { CardEntity } from './entities/card.entity';

export interface CardRef {
  cardId: string;
  accountId: string;
  network: 'VISA' | 'MASTERCARD';
  cardType: 'DEBIT' | 'CREDIT' | 'PREPAID' | 'GIFT';
  status: string;
}

export interface AccountRef {
  accountId: string;
  type: string;
  currencyCode: string;
  status: string;
  /** Distinct types of the cards on the account, sorted (the card rule of fee quotes needs them). */
  cardTypes: CardRef['cardType'][];
}

/**
 * Read-only view of cards and accounts for other contexts of the card API (fee quotation): they
 * learn what they need without touching the cards schema's entities. Tenant-scoped like every query.
 */
@Injectable()
export class CardDirectory {
  constructor(
    @InjectRepository(CardEntity) private readonly cards: Repository<CardEntity>,
    @InjectRepository(AccountEntity) private readonly accounts: Repository<AccountEntity>,
  ) {}

  /** Plain SQL on purpose: this is on the fee quote's hot path, where the query builder's cost shows. */
  async findCard(tenantId: string, cardId: string): Promise<CardRef | null> {
    const [row] = (await this.cards.query(
      `SELECT card_id, account_id, network, card_type, status FROM cards.cards WHERE tenant_id = $1 AND card_id = $2`,
      [tenantId, cardId],
    )) as Array<{
      card_id: string;
      account_id: string;
      network: CardRef['network'];
      card_type: CardRef['cardType'];
      status: string;
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

  /** The account and the types of its cards, in one round trip. */
  async findAccount(tenantId: string, accountId: string): Promise<AccountRef | null> {
    const [row] = (await this.accounts.query(
      `SELECT a.account_id, a.type, a.currency_code, a.status,
              ARRAY(SELECT DISTINCT c.card_type::text FROM cards.cards c
                     WHERE c.tenant_id = a.tenant_id AND c.account_id = a.account_id ORDER BY 1) AS card_types
         FROM cards.accounts a
        WHERE a.tenant_id = $1 AND a.account_id = $2`,
      [tenantId, accountId],
    )) as Array<{
      account_id: string;
      type: string;
      currency_code: string;
      status: string;
      card_types: CardRef['cardType'][];
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
