import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { FastifyInstance } from 'fastify';
import { QuoteError, quoteFees } from '../../../apps/card-api/src/pricing/domain/fee-engine';
import { toPriceList } from '../../../apps/card-api/src/pricing/domain/fee-rule-document';
import {
  STANDARD_EXCHANGE_RATES,
  STANDARD_LABELS,
  STANDARD_PRICE_LIST_RULES,
  STANDARD_TRANSACTION_TYPES,
} from '../../../apps/card-api/src/pricing/domain/standard-catalog';
import { authenticate, isObject, pool } from './shared';

const PRICE_LISTS = [
  toPriceList({
    id: randomUUID(),
    code: 'BENCH-STANDARD',
    level: 'TENANT',
    accountId: null,
    cardId: null,
    validFrom: '2026-01-01',
    validTo: null,
    rules: STANDARD_PRICE_LIST_RULES,
  }),
];
const RATES = STANDARD_EXCHANGE_RATES.map((r) => ({ ...r, rate: new Decimal(r.rate) }));
const TRANSACTION_TYPES = new Map(STANDARD_TRANSACTION_TYPES.map((t) => [t.code, t]));
const LABELS = new Set(STANDARD_LABELS.map((l) => l.code));

/** POST /api/v1/transactions/calculate-fees. */
export function feeQuotesRoute(app: FastifyInstance): void {
  app.post('/api/v1/transactions/calculate-fees', async (request, reply) => {
    const principal = await authenticate(request, reply, 'fees:quote');
    if (!principal) return reply;
    const b = request.body;
    const amount = isObject(b) && isObject(b.transactionAmount) ? b.transactionAmount : undefined;
    if (
      !isObject(b) ||
      !amount ||
      typeof b.postingDate !== 'string' ||
      !/^\d{4}-\d{2}-\d{2}$/.test(b.postingDate) ||
      typeof b.transactionTypeCode !== 'string' ||
      typeof amount.amount !== 'number' ||
      amount.amount < 0 ||
      typeof amount.currencyCode !== 'string' ||
      !/^[A-Z]{3}$/.test(amount.currencyCode) ||
      !(
        b.labels === undefined ||
        (Array.isArray(b.labels) && b.labels.every((l) => typeof l === 'string'))
      ) ||
      typeof b.accountId !== 'string' ||
      !(b.cardId === undefined || typeof b.cardId === 'string')
    ) {
      return reply.code(400).send({ code: 'validation_failed' });
    }
    const labels = (b.labels ?? []) as string[];
    const type = TRANSACTION_TYPES.get(b.transactionTypeCode);
    if (!type) return reply.code(422).send({ code: 'unknown_transaction_type' });
    if (labels.some((l) => !LABELS.has(l))) return reply.code(422).send({ code: 'unknown_labels' });
    if (amount.amount === 0 && !type.zeroAmountAllowed)
      return reply.code(422).send({ code: 'zero_amount_not_allowed' });
    const cardId = (b.cardId as string | undefined) ?? null;
    if (cardId === null) return reply.code(422).send({ code: 'card_required' });
    const { rows } = await pool.query(
      `SELECT account_id FROM baseline.cards WHERE tenant_id = $1 AND card_id = $2`,
      [principal.tenantId, cardId],
    );
    if (!rows.length) return reply.code(404).send({ code: 'card_not_found' });
    if (rows[0].account_id !== b.accountId) return reply.code(422).send({ code: 'card_not_on_account' });
    try {
      const quote = quoteFees(
        {
          postingDate: b.postingDate,
          transactionTypeCode: b.transactionTypeCode,
          amount: new Decimal(String(amount.amount)),
          currencyCode: amount.currencyCode,
          labels,
          accountId: b.accountId,
          cardId,
        },
        PRICE_LISTS,
        RATES,
      );
      return {
        postingDate: b.postingDate,
        transactionTypeCode: b.transactionTypeCode,
        transactionAmount: { amount: amount.amount, currencyCode: amount.currencyCode },
        labels,
        accountId: b.accountId,
        cardId,
        totalPrice: { amount: quote.totalPrice.toNumber(), currencyCode: quote.currencyCode },
        fees: quote.fees.map((f) => ({
          feeTypeCode: f.feeTypeCode,
          description: f.description,
          amount: f.amount.toNumber(),
          currencyCode: quote.currencyCode,
        })),
        priceList: quote.priceList,
      };
    } catch (error) {
      if (error instanceof QuoteError) return reply.code(422).send({ code: error.code });
      throw error;
    }
  });
}
