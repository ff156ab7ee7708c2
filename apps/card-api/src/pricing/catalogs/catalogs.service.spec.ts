import { newDouble } from '@test/support/doubles';
import { principal, TENANT_ID } from '@test/support/fixtures/pricing';
import { PricingCache } from '../fee-quotes/pricing-cache';
import { CatalogRepository } from './catalog.repository';
import { CatalogsService } from './catalogs.service';

describe('CatalogsService', () => {
  let catalog: jest.Mocked<CatalogRepository>;
  let cache: jest.Mocked<PricingCache>;
  let sut: CatalogsService;

  beforeEach(() => {
    catalog = newDouble<CatalogRepository>();
    cache = newDouble<PricingCache>();
    sut = new CatalogsService(catalog, cache);
  });

  describe('listTransactionTypes', () => {
    it("answers the tenant's types", async () => {
      catalog.listTransactionTypes.mockResolvedValue([
        {
          tenantId: TENANT_ID,
          code: 'ATM_WITHDRAWAL',
          name: 'ATM',
          zeroAmountAllowed: false,
          updatedAt: new Date(),
        },
      ]);
      await expect(sut.listTransactionTypes(principal)).resolves.toEqual({
        items: [{ code: 'ATM_WITHDRAWAL', name: 'ATM', zeroAmountAllowed: false }],
      });
      expect(catalog.listTransactionTypes).toHaveBeenCalledWith(TENANT_ID);
    });
  });

  describe('putTransactionType', () => {
    it('stores the type for the tenant, then tells the quote caches', async () => {
      const order: string[] = [];
      catalog.upsertTransactionType.mockImplementation(async () => void order.push('upsert'));
      cache.changed.mockImplementation(async () => void order.push('changed'));

      const answer = await sut.putTransactionType(principal, 'BALANCE_INQUIRY', {
        name: 'Balance inquiry',
        zeroAmountAllowed: true,
      });

      expect(answer).toEqual({ code: 'BALANCE_INQUIRY', name: 'Balance inquiry', zeroAmountAllowed: true });
      expect(catalog.upsertTransactionType).toHaveBeenCalledWith(
        expect.objectContaining({ tenantId: TENANT_ID, code: 'BALANCE_INQUIRY', zeroAmountAllowed: true }),
      );
      expect(cache.changed).toHaveBeenCalledWith(TENANT_ID);
      expect(order).toEqual(['upsert', 'changed']);
    });

    it('leaves the caches alone when the write fails', async () => {
      catalog.upsertTransactionType.mockRejectedValue(new Error('connection lost'));
      await expect(
        sut.putTransactionType(principal, 'X', { name: 'X', zeroAmountAllowed: false }),
      ).rejects.toThrow('connection lost');
      expect(cache.changed).not.toHaveBeenCalled();
    });
  });

  describe('listLabels', () => {
    it("answers the tenant's labels", async () => {
      catalog.listLabels.mockResolvedValue([
        { tenantId: TENANT_ID, code: 'DOMESTIC', name: 'At home', updatedAt: new Date() },
      ]);
      await expect(sut.listLabels(principal)).resolves.toEqual({
        items: [{ code: 'DOMESTIC', name: 'At home' }],
      });
      expect(catalog.listLabels).toHaveBeenCalledWith(TENANT_ID);
    });
  });

  describe('putLabel', () => {
    it('stores the label for the tenant, then tells the quote caches', async () => {
      const answer = await sut.putLabel(principal, 'CONTACTLESS', { name: 'Read contactless' });

      expect(answer).toEqual({ code: 'CONTACTLESS', name: 'Read contactless' });
      expect(catalog.upsertLabel).toHaveBeenCalledWith(
        expect.objectContaining({ tenantId: TENANT_ID, code: 'CONTACTLESS', name: 'Read contactless' }),
      );
      expect(cache.changed).toHaveBeenCalledWith(TENANT_ID);
    });
  });
});
