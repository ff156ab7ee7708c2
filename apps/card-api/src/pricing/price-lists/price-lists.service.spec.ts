import type { EntityManager } from 'typeorm';
import type { Transaction, UnitOfWork } from '@fincore/events';
import { ProblemException } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import type { AccountRepository, CardRepository } from '../card-context';
import type { CatalogRepository } from '../catalogs/catalog.repository';
import { STANDARD_PRICE_LIST_RULES } from '../domain/standard-catalog';
import { principal, priceListEntity, TENANT_ID } from '@test/support/fixtures/pricing';
import type { PricingCache } from '../fee-quotes/pricing-cache';
import { PriceListConflictError, PriceListRepository } from './price-list.repository';
import { PriceListsService } from './price-lists.service';

const manager = {} as EntityManager;
const rules = [STANDARD_PRICE_LIST_RULES[0]];
const body = {
  code: 'GOLD-2026',
  name: 'Gold 2026',
  level: 'ACCOUNT' as const,
  accountId: 'ACC-1',
  validFrom: '2026-01-01',
  validTo: '2026-12-31',
  rules,
};

describe('PriceListsService', () => {
  let uow: jest.Mocked<UnitOfWork>;
  let cache: jest.Mocked<PricingCache>;
  let accounts: jest.Mocked<AccountRepository>;
  let cards: jest.Mocked<CardRepository>;
  let priceLists: jest.Mocked<PriceListRepository>;
  let catalog: jest.Mocked<CatalogRepository>;
  let sut: PriceListsService;

  beforeEach(() => {
    uow = newDouble<UnitOfWork>();
    uow.run.mockImplementation((work) => work({ manager } as Transaction));
    cache = newDouble<PricingCache>();
    accounts = newDouble<AccountRepository>();
    cards = newDouble<CardRepository>();
    accounts.findRef.mockResolvedValue({
      accountId: 'ACC-1',
      type: 'CREDIT',
      currencyCode: 'EUR',
      status: 'ACTIVE',
      cardTypes: [],
    });
    priceLists = newDouble<PriceListRepository>();
    priceLists.findByCode.mockResolvedValue(null);
    priceLists.findSameOwner.mockResolvedValue([]);
    priceLists.insert.mockImplementation(async (_m, values) => priceListEntity({ ...values, id: 'pl-new' }));
    catalog = newDouble<CatalogRepository>();
    catalog.findKnownTransactionTypeCodes.mockResolvedValue(new Set(['ATM_WITHDRAWAL']));
    catalog.findKnownLabelCodes.mockResolvedValue(new Set(['INTERNATIONAL']));
    sut = new PriceListsService(uow, cache, accounts, cards, priceLists, catalog);
  });

  const problem = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a problem');
      },
      (error: unknown) => {
        if (!(error instanceof ProblemException)) throw error;
        return { code: error.code, status: error.status, params: error.params, errors: error.errors };
      },
    );

  describe('list', () => {
    it("answers the tenant's lists matching the filter", async () => {
      priceLists.list.mockResolvedValue([priceListEntity()]);
      const answer = await sut.list(principal, { level: 'TENANT' });
      expect(answer.items.map((l) => l.code)).toEqual(['STANDARD-2026']);
      expect(priceLists.list).toHaveBeenCalledWith(TENANT_ID, { level: 'TENANT' });
    });
  });

  describe('get', () => {
    it('answers the list with its update time as ISO text', async () => {
      priceLists.findById.mockResolvedValue(priceListEntity());
      await expect(sut.get(principal, 'pl-standard')).resolves.toMatchObject({
        id: 'pl-standard',
        updatedAt: '2026-01-02T08:00:00.000Z',
      });
    });

    it('is 404 for a list the tenant does not have', async () => {
      priceLists.findById.mockResolvedValue(null);
      expect(await problem(sut.get(principal, 'nope'))).toMatchObject({
        code: 'price_list_not_found',
        status: 404,
      });
    });
  });

  describe('create', () => {
    it('stores the list in a transaction for its owner, then tells the quote caches', async () => {
      const answer = await sut.create(principal, body);

      expect(answer).toMatchObject({ id: 'pl-new', code: 'GOLD-2026', level: 'ACCOUNT', accountId: 'ACC-1' });
      expect(priceLists.insert).toHaveBeenCalledWith(
        manager,
        expect.objectContaining({
          tenantId: TENANT_ID,
          level: 'ACCOUNT',
          accountId: 'ACC-1',
          cardId: null,
          rules,
        }),
      );
      expect(priceLists.findSameOwner).toHaveBeenCalledWith(manager, {
        tenantId: TENANT_ID,
        level: 'ACCOUNT',
        accountId: 'ACC-1',
        cardId: null,
      });
      expect(cache.changed).toHaveBeenCalledWith(TENANT_ID);
    });

    it("is 404 when the account is not the tenant's, before any transaction", async () => {
      accounts.findRef.mockResolvedValue(null);
      expect(await problem(sut.create(principal, body))).toMatchObject({
        code: 'account_not_found',
        status: 404,
      });
      expect(uow.run).not.toHaveBeenCalled();
    });

    it("is 404 when the card is not the tenant's", async () => {
      cards.findRef.mockResolvedValue(null);
      const forCard = { ...body, level: 'CARD' as const, accountId: undefined, cardId: 'CARD-9' };
      expect(await problem(sut.create(principal, forCard))).toMatchObject({
        code: 'card_not_found',
        params: { cardId: 'CARD-9' },
      });
    });

    it('is 422 listing every rule entry missing from the catalogs', async () => {
      catalog.findKnownLabelCodes.mockResolvedValue(new Set());
      expect(await problem(sut.create(principal, body))).toEqual({
        code: 'unknown_catalog_entries',
        status: 422,
        params: {},
        errors: [{ field: 'rules[0].labelsAll[0]', message: 'unknown label INTERNATIONAL' }],
      });
      expect(catalog.findKnownLabelCodes).toHaveBeenCalledWith(manager, TENANT_ID, ['INTERNATIONAL']);
      expect(priceLists.insert).not.toHaveBeenCalled();
    });

    it('is 409 when another list has the code', async () => {
      priceLists.findByCode.mockResolvedValue(priceListEntity({ id: 'pl-other', code: 'GOLD-2026' }));
      expect(await problem(sut.create(principal, body))).toMatchObject({
        code: 'price_list_code_taken',
        status: 409,
      });
    });

    it('is 409 naming the list of the same owner whose period overlaps', async () => {
      priceLists.findSameOwner.mockResolvedValue([
        priceListEntity({ id: 'pl-a', code: 'OLD', validFrom: '2025-01-01', validTo: '2025-12-31' }),
        priceListEntity({ id: 'pl-b', code: 'MID', validFrom: '2026-06-01', validTo: null }),
      ]);
      expect(await problem(sut.create(principal, body))).toEqual({
        code: 'price_list_overlap',
        status: 409,
        params: { conflictingCode: 'MID', validFrom: '2026-01-01', validTo: '2026-12-31' },
        errors: undefined,
      });
    });

    it.each([
      [
        'period_overlap',
        'price_list_overlap',
        { conflictingCode: 'saved concurrently', validTo: '2026-12-31' },
      ],
      ['code_taken', 'price_list_code_taken', { code: 'GOLD-2026' }],
    ] as const)('turns a %s refused by the database into 409 %s', async (conflict, code, params) => {
      priceLists.insert.mockRejectedValue(new PriceListConflictError(conflict));
      expect(await problem(sut.create(principal, body))).toMatchObject({ code, status: 409, params });
      expect(cache.changed).not.toHaveBeenCalled();
    });
  });

  describe('replace', () => {
    const existing = priceListEntity({ id: 'pl-1', code: 'GOLD-2026', level: 'ACCOUNT', accountId: 'ACC-1' });

    it('locks the list, keeps its own code and period, and bumps the version', async () => {
      priceLists.lockForReplace.mockResolvedValue({ ...existing, version: 3 });
      priceLists.findByCode.mockResolvedValue(existing);
      priceLists.findSameOwner.mockResolvedValue([existing]);
      priceLists.update.mockImplementation(async (_m, _t, id, values) => priceListEntity({ ...values, id }));

      const answer = await sut.replace(principal, 'pl-1', { ...body, name: 'Gold, renamed' });

      expect(priceLists.lockForReplace).toHaveBeenCalledWith(manager, TENANT_ID, 'pl-1');
      expect(priceLists.update).toHaveBeenCalledWith(
        manager,
        TENANT_ID,
        'pl-1',
        expect.objectContaining({ name: 'Gold, renamed', version: 4 }),
      );
      expect(answer).toMatchObject({ id: 'pl-1', name: 'Gold, renamed', version: 4 });
      expect(cache.changed).toHaveBeenCalledWith(TENANT_ID);
    });

    it('is 404 for a list the tenant does not have', async () => {
      priceLists.lockForReplace.mockResolvedValue(null);
      expect(await problem(sut.replace(principal, 'nope', body))).toMatchObject({
        code: 'price_list_not_found',
        params: { priceListId: 'nope' },
      });
      expect(priceLists.update).not.toHaveBeenCalled();
    });
  });

  describe('delete', () => {
    it('deletes in a transaction, then tells the quote caches', async () => {
      priceLists.delete.mockResolvedValue(true);
      await sut.delete(principal, 'pl-1');
      expect(priceLists.delete).toHaveBeenCalledWith(manager, TENANT_ID, 'pl-1');
      expect(cache.changed).toHaveBeenCalledWith(TENANT_ID);
    });

    it('is 404 when there was nothing to delete', async () => {
      priceLists.delete.mockResolvedValue(false);
      expect(await problem(sut.delete(principal, 'pl-1'))).toMatchObject({ code: 'price_list_not_found' });
      expect(cache.changed).not.toHaveBeenCalled();
    });
  });
});
