import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Principal } from '@fincore/platform';
import { UnitOfWork } from '@fincore/events';
import type { EntityManager } from 'typeorm';
import { CatalogRepository } from '../catalogs/catalog.repository';
import { accountNotFound, AccountRepository, cardNotFound, CardRepository } from '../card-context';
import { periodsOverlap } from '../domain/calendar';
import { catalogReferencesOf, unknownCatalogReferences } from '../domain/catalog-references';
import type { FeeRuleDocument } from '../domain/fee-rule-document';
import {
  priceListCodeTaken,
  priceListNotFound,
  priceListOverlap,
  unknownCatalogEntries,
} from '../pricing.problems';
import { PricingCache } from '../fee-quotes/pricing-cache';
import type { PriceListEntity } from './price-list.entity';
import { mapPriceList } from './price-list.mapper';
import { PriceListConflictError, PriceListRepository } from './price-list.repository';
import type { PriceListBody, PriceListQuery } from './price-list.schemas';

type PriceListInput = z.infer<typeof PriceListBody>;

const overlapProblem = (conflictingCode: string, body: PriceListInput) =>
  priceListOverlap(conflictingCode, body.validFrom, body.validTo);

/**
 * The tenant's price lists. Writes run in a transaction that checks catalog references, the
 * unique code and non-overlapping validity; after commit the quote caches are told.
 */
@Injectable()
export class PriceListsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly cache: PricingCache,
    private readonly accounts: AccountRepository,
    private readonly cards: CardRepository,
    private readonly priceLists: PriceListRepository,
    private readonly catalog: CatalogRepository,
  ) {}

  async list(principal: Principal, query: z.infer<typeof PriceListQuery>) {
    const rows = await this.priceLists.list(principal.tenantId, query);
    return { items: rows.map(mapPriceList) };
  }

  async get(principal: Principal, id: string) {
    const row = await this.priceLists.findById(principal.tenantId, id);
    if (!row) throw priceListNotFound(id);
    return mapPriceList(row);
  }

  async create(principal: Principal, body: PriceListInput) {
    await this.checkOwner(principal, body);
    const saved = await this.write(body, (manager) => this.persist(manager, principal, body, null));
    await this.cache.changed(principal.tenantId);
    return mapPriceList(saved);
  }

  async replace(principal: Principal, id: string, body: PriceListInput) {
    await this.checkOwner(principal, body);
    const saved = await this.write(body, async (manager) => {
      const existing = await this.priceLists.lockForReplace(manager, principal.tenantId, id);
      if (!existing) throw priceListNotFound(id);
      return this.persist(manager, principal, body, existing);
    });
    await this.cache.changed(principal.tenantId);
    return mapPriceList(saved);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const deleted = await this.uow.run((tx) => this.priceLists.delete(tx.manager, principal.tenantId, id));
    if (!deleted) throw priceListNotFound(id);
    await this.cache.changed(principal.tenantId);
  }

  /** The account or card a price list is for must be the tenant's (404 otherwise, as everywhere). */
  private async checkOwner(principal: Principal, body: PriceListInput): Promise<void> {
    if (body.accountId && !(await this.accounts.findRef(principal.tenantId, body.accountId))) {
      throw accountNotFound(body.accountId);
    }
    if (body.cardId && !(await this.cards.findRef(principal.tenantId, body.cardId))) {
      throw cardNotFound(body.cardId);
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
      if (!(error instanceof PriceListConflictError)) throw error;
      if (error.conflict === 'period_overlap') throw overlapProblem('saved concurrently', body);
      throw priceListCodeTaken(body.code);
    }
  }

  private async persist(
    manager: EntityManager,
    principal: Principal,
    body: PriceListInput,
    existing: PriceListEntity | null,
  ): Promise<PriceListEntity> {
    const tenantId = principal.tenantId;
    await this.checkCatalogReferences(manager, tenantId, body.rules);

    const clash = await this.priceLists.findByCode(manager, tenantId, body.code);
    if (clash && clash.id !== existing?.id) throw priceListCodeTaken(body.code);

    const owner = {
      tenantId,
      level: body.level,
      accountId: body.accountId ?? null,
      cardId: body.cardId ?? null,
    };
    const sameOwner = await this.priceLists.findSameOwner(manager, owner);
    const overlapping = sameOwner.find(
      (l) => l.id !== existing?.id && periodsOverlap(l, { validFrom: body.validFrom, validTo: body.validTo }),
    );
    if (overlapping) throw overlapProblem(overlapping.code, body);

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
      return this.priceLists.update(manager, tenantId, existing.id, {
        ...values,
        version: existing.version + 1,
      });
    }
    return this.priceLists.insert(manager, values);
  }

  /** Rules may only name transaction types and labels of the tenant's catalogs (422 with every miss). */
  private async checkCatalogReferences(
    manager: EntityManager,
    tenantId: string,
    rules: FeeRuleDocument[],
  ): Promise<void> {
    const named = catalogReferencesOf(rules);
    const known = {
      transactionTypeCodes: await this.catalog.findKnownTransactionTypeCodes(
        manager,
        tenantId,
        named.transactionTypeCodes,
      ),
      labelCodes: await this.catalog.findKnownLabelCodes(manager, tenantId, named.labelCodes),
    };
    const errors = unknownCatalogReferences(rules, known);
    if (errors.length > 0) throw unknownCatalogEntries(errors);
  }
}
