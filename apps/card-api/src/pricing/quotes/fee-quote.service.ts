import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { z } from 'zod';
import { Principal, ProblemException } from '@fincore/platform';
import { CardRefs } from '../card-context';
import { quoteNeedsCard } from '../domain/card-requirement';
import { QuoteError, quoteFees } from '../domain/fee-engine';
import { PricingCache } from './pricing-cache';
import { mapQuote } from './quote.mapper';
import type { CalculateFeesBody } from './quote.schemas';

/**
 * Quotes fees: catalogs, price lists and rates from memory (PricingCache), the card or account
 * from the card context's refs (in memory too: a warm quote makes no PostgreSQL round trip), then
 * the pure engine.
 */
@Injectable()
export class FeeQuoteService {
  constructor(
    private readonly cache: PricingCache,
    private readonly refs: CardRefs,
  ) {}

  async calculate(principal: Principal, body: z.infer<typeof CalculateFeesBody>) {
    const tenantId = principal.tenantId;
    const pricing = await this.cache.get(tenantId);

    const type = pricing.transactionTypes.get(body.transactionTypeCode);
    if (!type)
      throw new ProblemException('unknown_transaction_type', 422, {
        transactionTypeCode: body.transactionTypeCode,
      });
    const unknown = body.labels.filter((l) => !pricing.labels.has(l));
    if (unknown.length > 0) throw new ProblemException('unknown_labels', 422, { labels: unknown });
    if (body.transactionAmount.amount === 0 && !type.zeroAmountAllowed) {
      throw new ProblemException('zero_amount_not_allowed', 422, {
        transactionTypeCode: body.transactionTypeCode,
      });
    }

    if (body.cardId !== undefined) {
      const card = await this.refs.card(tenantId, body.cardId);
      if (!card) throw new ProblemException('card_not_found', 404, { cardId: body.cardId });
      if (card.accountId !== body.accountId) {
        throw new ProblemException('card_not_on_account', 422, {
          cardId: body.cardId,
          accountId: body.accountId,
        });
      }
    } else {
      const account = await this.refs.account(tenantId, body.accountId);
      if (!account) throw new ProblemException('account_not_found', 404, { accountId: body.accountId });
      if (quoteNeedsCard(account)) {
        throw new ProblemException(
          'card_required',
          422,
          { accountId: body.accountId, accountType: account.type },
          [{ field: 'cardId', message: `required for ${account.type} accounts` }],
        );
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
      return mapQuote(body, quote);
    } catch (error) {
      if (error instanceof QuoteError) throw new ProblemException(error.code, 422, error.params);
      throw error;
    }
  }
}
