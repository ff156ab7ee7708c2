import { ProblemException } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import type { AccountRef, CardRef, CardRefs } from '../card-context';
import {
  STANDARD_EXCHANGE_RATES,
  STANDARD_LABELS,
  STANDARD_TRANSACTION_TYPES,
} from '../domain/standard-catalog';
import { principal, priceListDocument, TENANT_ID } from '@test/support/fixtures/pricing';
import { FeeQuotesService } from './fee-quotes.service';
import type { PricingCache } from './pricing-cache';
import { indexTenantPricing } from './tenant-pricing';

const pricing = indexTenantPricing({
  transactionTypes: STANDARD_TRANSACTION_TYPES,
  labels: STANDARD_LABELS.map((l) => l.code),
  priceLists: [
    priceListDocument(),
    priceListDocument({ id: 'pl-card', code: 'CARD-FREE', level: 'CARD', cardId: 'CARD-1', rules: [] }),
  ],
  rates: STANDARD_EXCHANGE_RATES,
});

const card = (over: Partial<CardRef> = {}): CardRef => ({
  cardId: 'CARD-1',
  accountId: 'ACC-1',
  network: 'VISA',
  cardType: 'DEBIT',
  status: 'ACTIVE',
  ...over,
});
const account = (over: Partial<AccountRef> = {}): AccountRef => ({
  accountId: 'ACC-2',
  type: 'CREDIT',
  currencyCode: 'EUR',
  status: 'ACTIVE',
  cardTypes: ['CREDIT'],
  ...over,
});

/** A domestic ATM withdrawal: 2.00 EUR on the standard tariff. */
const body = (over: object = {}) => ({
  postingDate: '2026-03-15',
  transactionTypeCode: 'ATM_WITHDRAWAL',
  transactionAmount: { amount: 200, currencyCode: 'EUR' },
  labels: ['DOMESTIC'],
  accountId: 'ACC-2',
  ...over,
});

describe('FeeQuotesService', () => {
  let cache: jest.Mocked<PricingCache>;
  let refs: jest.Mocked<CardRefs>;
  let sut: FeeQuotesService;

  beforeEach(() => {
    cache = newDouble<PricingCache>();
    cache.get.mockResolvedValue(pricing);
    refs = newDouble<CardRefs>();
    refs.card.mockResolvedValue(card());
    refs.account.mockResolvedValue(account());
    sut = new FeeQuotesService(cache, refs);
  });

  const problem = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    if (!(error instanceof ProblemException)) throw new Error(`expected a problem, got ${String(error)}`);
    return { code: error.code, status: error.status, params: error.params, errors: error.errors };
  };

  describe('calculate', () => {
    it("prices an account's transaction with the tenant default, in one card-context lookup", async () => {
      const answer = await sut.calculate(principal, body());

      expect(answer.totalPrice).toEqual({ amount: 2, currencyCode: 'EUR' });
      expect(answer.priceList).toEqual({ id: 'pl-standard', code: 'STANDARD-2026', level: 'TENANT' });
      expect(answer.cardId).toBeNull();
      expect(cache.get).toHaveBeenCalledWith(TENANT_ID);
      expect(refs.account).toHaveBeenCalledWith(TENANT_ID, 'ACC-2');
      expect(refs.card).not.toHaveBeenCalled();
    });

    it("prefers the card's price list and does not look the account up", async () => {
      const answer = await sut.calculate(principal, body({ accountId: 'ACC-1', cardId: 'CARD-1' }));

      expect(answer.priceList.code).toBe('CARD-FREE');
      expect(answer.fees).toEqual([]);
      expect(refs.account).not.toHaveBeenCalled();
    });

    it('refuses codes missing from the catalogs before asking the card context', async () => {
      expect(
        await problem(sut.calculate(principal, body({ transactionTypeCode: 'TELEPORT' }))),
      ).toMatchObject({
        code: 'unknown_transaction_type',
        status: 422,
      });
      expect(await problem(sut.calculate(principal, body({ labels: ['DOMESTIC', 'MOON'] })))).toMatchObject({
        code: 'unknown_labels',
        params: { labels: ['MOON'] },
      });
      expect(refs.account).not.toHaveBeenCalled();
    });

    it('refuses amount 0 unless the type allows it', async () => {
      const zero = { transactionAmount: { amount: 0, currencyCode: 'EUR' } };
      expect(await problem(sut.calculate(principal, body(zero)))).toMatchObject({
        code: 'zero_amount_not_allowed',
      });
      const inquiry = await sut.calculate(
        principal,
        body({ ...zero, transactionTypeCode: 'BALANCE_INQUIRY' }),
      );
      expect(inquiry.transactionAmount.amount).toBe(0);
    });

    it('is 404 for an unknown card and 422 for a card of another account', async () => {
      refs.card.mockResolvedValueOnce(null);
      expect(await problem(sut.calculate(principal, body({ cardId: 'CARD-9' })))).toMatchObject({
        code: 'card_not_found',
        status: 404,
      });
      expect(await problem(sut.calculate(principal, body({ cardId: 'CARD-1' })))).toMatchObject({
        code: 'card_not_on_account',
        params: { cardId: 'CARD-1', accountId: 'ACC-2' },
      });
    });

    it('is 404 for an unknown account', async () => {
      refs.account.mockResolvedValue(null);
      expect(await problem(sut.calculate(principal, body()))).toMatchObject({
        code: 'account_not_found',
        params: { accountId: 'ACC-2' },
      });
    });

    it('asks for the card on accounts that carry debit, prepaid or gift cards', async () => {
      refs.account.mockResolvedValue(account({ type: 'CURRENT', cardTypes: ['DEBIT'] }));
      expect(await problem(sut.calculate(principal, body()))).toEqual({
        code: 'card_required',
        status: 422,
        params: { accountId: 'ACC-2', accountType: 'CURRENT' },
        errors: [{ field: 'cardId', message: 'required for CURRENT accounts' }],
      });
    });

    it("answers the engine's refusals as 422 problems", async () => {
      expect(await problem(sut.calculate(principal, body({ postingDate: '2025-06-01' })))).toMatchObject({
        code: 'no_price_list',
        status: 422,
      });
    });
  });
});
