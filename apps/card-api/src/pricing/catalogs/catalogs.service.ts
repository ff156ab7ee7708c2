import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { Principal } from '@fincore/platform';
import { PricingCache } from '../fee-quotes/pricing-cache';
import { mapLabel, mapTransactionType } from './catalog.mapper';
import { CatalogRepository } from './catalog.repository';
import type { LabelBody, TransactionTypeBody } from './catalog.schemas';

/** The tenant's transaction types and labels. Every change tells the quote caches after it is stored. */
@Injectable()
export class CatalogsService {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly cache: PricingCache,
  ) {}

  async listTransactionTypes(principal: Principal) {
    const rows = await this.catalog.listTransactionTypes(principal.tenantId);
    return { items: rows.map(mapTransactionType) };
  }

  async putTransactionType(principal: Principal, code: string, body: z.infer<typeof TransactionTypeBody>) {
    const row = { tenantId: principal.tenantId, code, ...body, updatedAt: new Date() };
    await this.catalog.upsertTransactionType(row);
    await this.cache.changed(principal.tenantId);
    return mapTransactionType(row);
  }

  async listLabels(principal: Principal) {
    const rows = await this.catalog.listLabels(principal.tenantId);
    return { items: rows.map(mapLabel) };
  }

  async putLabel(principal: Principal, code: string, body: z.infer<typeof LabelBody>) {
    const row = { tenantId: principal.tenantId, code, ...body, updatedAt: new Date() };
    await this.catalog.upsertLabel(row);
    await this.cache.changed(principal.tenantId);
    return mapLabel(row);
  }
}
