import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { FieldError, Principal, ProblemException } from '@fincore/platform';
import { UnitOfWork } from '@fincore/events';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, QueryFailedError, Repository } from 'typeorm';
import { AccountRepository } from '../accounts/account.repository';
import { CardRepository } from '../cards/card.repository';
import { periodsOverlap } from './domain/calendar';
import type { FeeRuleDocument } from './domain/fee-rule-document';
import { ExchangeRateEntity } from './entities/exchange-rate.entity';
import { LabelEntity } from './entities/label.entity';
import { PriceListEntity } from './entities/price-list.entity';
import { TransactionTypeEntity } from './entities/transaction-type.entity';
import {
  toExchangeRateResponse,
  toLabelResponse,
  toPriceListResponse,
  toTransactionTypeResponse,
} from './mapper';
import { PricingCache } from './pricing-cache';
import type {
  ExchangeRateBody,
  LabelBody,
  PriceListBody,
  PriceListQuery,
  TransactionTypeBody,
} from './pricing.schemas';

type PriceListInput = z.infer<typeof PriceListBody>;

const constraintOf = (error: unknown) =>
  error instanceof QueryFailedError
    ? (error.driverError as { code?: string; constraint?: string })
    : undefined;

/**
 * Provisioning of the tenant's pricing: catalogs, exchange rates and price lists. Every change
 * commits, then tells the quote caches of all replicas (PricingCache.changed).
 */
@Injectable()
export class PricingService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly cache: PricingCache,
    private readonly cards: CardRepository,
    private readonly accounts: AccountRepository,
    @InjectRepository(TransactionTypeEntity) private readonly types: Repository<TransactionTypeEntity>,
    @InjectRepository(LabelEntity) private readonly labels: Repository<LabelEntity>,
    @InjectRepository(ExchangeRateEntity) private readonly rates: Repository<ExchangeRateEntity>,
    @InjectRepository(PriceListEntity) private readonly priceLists: Repository<PriceListEntity>,
  ) {}

  // ------------------------------------------------------------ catalogs

  async listTransactionTypes(principal: Principal) {
    const rows = await this.types.find({ where: { tenantId: principal.tenantId }, order: { code: 'ASC' } });
    return { items: rows.map(toTransactionTypeResponse) };
  }

  async putTransactionType(principal: Principal, code: string, body: z.infer<typeof TransactionTypeBody>) {
    const row = { tenantId: principal.tenantId, code, ...body, updatedAt: new Date() };
    await this.types.upsert(row, ['tenantId', 'code']);
    await this.cache.changed(principal.tenantId);
    return toTransactionTypeResponse(row);
  }

  async listLabels(principal: Principal) {
    const rows = await this.labels.find({ where: { tenantId: principal.tenantId }, order: { code: 'ASC' } });
    return { items: rows.map(toLabelResponse) };
  }

  async putLabel(principal: Principal, code: string, body: z.infer<typeof LabelBody>) {
    const row = { tenantId: principal.tenantId, code, ...body, updatedAt: new Date() };
    await this.labels.upsert(row, ['tenantId', 'code']);
    await this.cache.changed(principal.tenantId);
    return toLabelResponse(row);
  }

  // ------------------------------------------------------------ exchange rates

  async listExchangeRates(principal: Principal) {
    const rows = await this.rates.find({
      where: { tenantId: principal.tenantId },
      order: { baseCurrency: 'ASC', quoteCurrency: 'ASC', validFrom: 'ASC' },
    });
    return { items: rows.map(toExchangeRateResponse) };
  }

  /** Sets the rate of a pair from a date (replacing the rate of that same date, if any). */
  async putExchangeRate(principal: Principal, body: z.infer<typeof ExchangeRateBody>) {
    const row = { tenantId: principal.tenantId, ...body, updatedAt: new Date() };
    await this.rates.upsert(row, ['tenantId', 'baseCurrency', 'quoteCurrency', 'validFrom']);
    await this.cache.changed(principal.tenantId);
    return toExchangeRateResponse(row);
  }

  // ------------------------------------------------------------ price lists

  async listPriceLists(principal: Principal, query: z.infer<typeof PriceListQuery>) {
    const rows = await this.priceLists.find({
      where: {
        tenantId: principal.tenantId,
        ...(query.level ? { level: query.level } : {}),
        ...(query.accountId ? { accountId: query.accountId } : {}),
        ...(query.cardId ? { cardId: query.cardId } : {}),
      },
      order: { level: 'ASC', code: 'ASC', validFrom: 'ASC' },
    });
    return { items: rows.map(toPriceListResponse) };
  }

  async getPriceList(principal: Principal, id: string) {
    const row = await this.priceLists.findOne({ where: { tenantId: principal.tenantId, id } });
    if (!row) throw new ProblemException('price_list_not_found', 404, { priceListId: id });
    return toPriceListResponse(row);
  }

  async createPriceList(principal: Principal, body: PriceListInput) {
    await this.checkOwner(principal, body);
    const saved = await this.write(body, (manager) => this.persist(manager, principal, body, null));
    await this.cache.changed(principal.tenantId);
    return toPriceListResponse(saved);
  }

  async replacePriceList(principal: Principal, id: string, body: PriceListInput) {
    await this.checkOwner(principal, body);
    const saved = await this.write(body, async (manager) => {
      const existing = await manager
        .getRepository(PriceListEntity)
        .findOne({ where: { tenantId: principal.tenantId, id }, lock: { mode: 'pessimistic_write' } });
      if (!existing) throw new ProblemException('price_list_not_found', 404, { priceListId: id });
      return this.persist(manager, principal, body, existing);
    });
    await this.cache.changed(principal.tenantId);
    return toPriceListResponse(saved);
  }

  async deletePriceList(principal: Principal, id: string): Promise<void> {
    const { affected } = await this.uow.run((tx) =>
      tx.manager.getRepository(PriceListEntity).delete({ tenantId: principal.tenantId, id }),
    );
    if (!affected) throw new ProblemException('price_list_not_found', 404, { priceListId: id });
    await this.cache.changed(principal.tenantId);
  }

  /** The account or card a price list is for must be the tenant's (404 otherwise, as everywhere). */
  private async checkOwner(principal: Principal, body: PriceListInput): Promise<void> {
    if (body.accountId && !(await this.accounts.findRef(principal.tenantId, body.accountId))) {
      throw new ProblemException('account_not_found', 404, { accountId: body.accountId });
    }
    if (body.cardId && !(await this.cards.findRef(principal.tenantId, body.cardId))) {
      throw new ProblemException('card_not_found', 404, { cardId: body.cardId });
    }
  }

  /** Runs a price-list write; the exclusion and unique constraints catch what a race let through. */
  private async write(
    body: PriceListInput,
    work: (manager: EntityManager) => Promise<PriceListEntity>,
  ): Promise<PriceListEntity> {
    try {
      return await this.uow.run((tx) => work(tx.manager));
    } catch (error) {
      const driver = constraintOf(error);
      if (driver?.constraint === 'price_lists_no_overlap') {
        throw new ProblemException('price_list_overlap', 409, {
          conflictingCode: 'saved concurrently',
          validFrom: body.validFrom,
          validTo: body.validTo ?? 'open end',
        });
      }
      if (driver?.constraint === 'price_lists_tenant_code')
        throw new ProblemException('price_list_code_taken', 409, { code: body.code });
      throw error;
    }
  }

  private async persist(
    manager: EntityManager,
    principal: Principal,
    body: PriceListInput,
    existing: PriceListEntity | null,
  ) {
    const tenantId = principal.tenantId;
    await this.checkCatalogReferences(manager, tenantId, body.rules);
    const repo = manager.getRepository(PriceListEntity);

    const clash = await repo.findOne({ where: { tenantId, code: body.code } });
    if (clash && clash.id !== existing?.id)
      throw new ProblemException('price_list_code_taken', 409, { code: body.code });

    const owner = {
      tenantId,
      level: body.level,
      accountId: body.accountId ?? null,
      cardId: body.cardId ?? null,
    };
    // The level fixes which owner column is set (CHECK price_lists_owner); null ones need no filter.
    const sameOwner = await repo.find({
      where: {
        tenantId,
        level: body.level,
        ...(owner.accountId ? { accountId: owner.accountId } : {}),
        ...(owner.cardId ? { cardId: owner.cardId } : {}),
      },
    });
    const overlapping = sameOwner.find(
      (l) => l.id !== existing?.id && periodsOverlap(l, { validFrom: body.validFrom, validTo: body.validTo }),
    );
    if (overlapping) {
      throw new ProblemException('price_list_overlap', 409, {
        conflictingCode: overlapping.code,
        validFrom: body.validFrom,
        validTo: body.validTo ?? 'open end',
      });
    }

    const values = {
      ...owner,
      code: body.code,
      name: body.name,
      validFrom: body.validFrom,
      validTo: body.validTo,
      // As parsed: the schema's defaults are filled in, so stored documents have one shape.
      rules: body.rules,
      updatedAt: new Date(),
    };
    if (existing) {
      await repo.update({ id: existing.id, tenantId }, { ...values, version: existing.version + 1 });
      return repo.findOneOrFail({ where: { id: existing.id, tenantId } });
    }
    return repo.save(repo.create(values));
  }

  /** Rules may only name transaction types and labels of the tenant's catalogs (422 with every miss). */
  private async checkCatalogReferences(
    manager: EntityManager,
    tenantId: string,
    rules: FeeRuleDocument[],
  ): Promise<void> {
    const typeCodes = [...new Set(rules.flatMap((r) => r.transactionTypeCodes))];
    const labelCodes = [...new Set(rules.flatMap((r) => [...r.labelsAll, ...r.labelsNone]))];
    const knownTypes = new Set(
      typeCodes.length === 0
        ? []
        : (
            await manager
              .getRepository(TransactionTypeEntity)
              .find({ where: { tenantId, code: In(typeCodes) } })
          ).map((t) => t.code),
    );
    const knownLabels = new Set(
      labelCodes.length === 0
        ? []
        : (await manager.getRepository(LabelEntity).find({ where: { tenantId, code: In(labelCodes) } })).map(
            (l) => l.code,
          ),
    );
    const errors: FieldError[] = [];
    rules.forEach((rule, i) => {
      rule.transactionTypeCodes.forEach((code, j) => {
        if (!knownTypes.has(code))
          errors.push({
            field: `rules[${i}].transactionTypeCodes[${j}]`,
            message: `unknown transaction type ${code}`,
          });
      });
      (['labelsAll', 'labelsNone'] as const).forEach((key) =>
        rule[key].forEach((code, j) => {
          if (!knownLabels.has(code))
            errors.push({ field: `rules[${i}].${key}[${j}]`, message: `unknown label ${code}` });
        }),
      );
    });
    if (errors.length > 0) throw new ProblemException('unknown_catalog_entries', 422, {}, errors);
  }
}
