import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { z } from 'zod';
import { Principal } from '@fincore/platform';
import { accountNotFound, cardNotFound, CardRefs } from '../card-context';
import { quoteNeedsCard } from '../domain/card-requirement';
import { QuoteError, quoteFees } from '../domain/fee-engine';
import {
  cardNotOnAccount,
  cardRequired,
  quoteRefused,
  unknownLabels,
  unknownTransactionType,
  zeroAmountNotAllowed,
} from '../pricing.problems';
import { PricingCache } from './pricing-cache';
import { mapFeeQuote } from './fee-quote.mapper';
import type { CalculateFeesBody } from './fee-quote.schemas';

/**
 * Quotes fees: catalogs, price lists and rates from memory (PricingCache), the card or account
 * from the card context's refs (in memory too: a warm quote makes no PostgreSQL round trip), then
 * the pure engine.
 */
@Injectable()
export class FeeQuotesService {
  constructor(
    private readonly cache: PricingCache,
    private readonly refs: CardRefs,
  ) {}

  async calculate(principal: Principal, body: z.infer<typeof CalculateFeesBody>) {
    const tenantId = principal.tenantId;
    const pricing = await this.cache.get(tenantId);

    const type = pricing.transactionTypes.get(body.transactionTypeCode);
    if (!type) throw unknownTransactionType(body.transactionTypeCode);
    const unknown = body.labels.filter((l) => !pricing.labels.has(l));
    if (unknown.length > 0) throw unknownLabels(unknown);
    if (body.transactionAmount.amount === 0 && !type.zeroAmountAllowed) {
      throw zeroAmountNotAllowed(body.transactionTypeCode);
    }

    if (body.cardId !== undefined) {
      const card = await this.refs.card(tenantId, body.cardId);
      if (!card) throw cardNotFound(body.cardId);
      if (card.accountId !== body.accountId) {
        throw cardNotOnAccount(body.cardId, body.accountId);
      }
    } else {
      const account = await this.refs.account(tenantId, body.accountId);
      if (!account) throw accountNotFound(body.accountId);
      if (quoteNeedsCard(account)) {
        throw cardRequired(body.accountId, account.type);
      }
    }

    const cardId = body.cardId ?? null;
    const candidates = [
      ...(cardId === null ? [] : (pricing.cardLists.get(cardId) ?? [])),
      ...(pricing.accountLists.get(body.accountId) ?? []),
      ...pricing.tenantLists,
    ];
    try {
      const quote = quoteFees(
        {
          postingDate: body.postingDate,
          transactionTypeCode: body.transactionTypeCode,
          // From the number's shortest decimal text: 10.05 stays 10.05, never 10.0499999…
          amount: new Decimal(String(body.transactionAmount.amount)),
          currencyCode: body.transactionAmount.currencyCode,
          labels: body.labels,
          accountId: body.accountId,
          cardId,
        },
        candidates,
        pricing.rates,
      );
      return mapFeeQuote(body, quote);
    } catch (error) {
      if (error instanceof QuoteError) throw quoteRefused(error);
      throw error;
    }
  }
}
