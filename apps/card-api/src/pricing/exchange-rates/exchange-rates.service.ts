import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { Principal } from '@fincore/platform';
import { PricingCache } from '../fee-quotes/pricing-cache';
import { mapExchangeRate } from './exchange-rate.mapper';
import { ExchangeRateRepository } from './exchange-rate.repository';
import type { ExchangeRateBody } from './exchange-rate.schemas';

/** The tenant's exchange rates. Every change tells the quote caches after it is stored. */
@Injectable()
export class ExchangeRatesService {
  constructor(
    private readonly rates: ExchangeRateRepository,
    private readonly cache: PricingCache,
  ) {}

  async list(principal: Principal) {
    const rows = await this.rates.listForTenant(principal.tenantId);
    return { items: rows.map(mapExchangeRate) };
  }

  /** Sets the rate of a pair from a date (replacing the rate of that same date, if any). */
  async put(principal: Principal, body: z.infer<typeof ExchangeRateBody>) {
    const row = { tenantId: principal.tenantId, ...body, updatedAt: new Date() };
    await this.rates.upsert(row);
    await this.cache.changed(principal.tenantId);
    return mapExchangeRate(row);
  }
}
