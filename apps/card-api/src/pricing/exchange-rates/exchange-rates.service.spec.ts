import { newDouble } from '@test/support/doubles';
import { principal, TENANT_ID } from '@test/support/fixtures/pricing';
import { PricingCache } from '../fee-quotes/pricing-cache';
import { ExchangeRateRepository } from './exchange-rate.repository';
import { ExchangeRatesService } from './exchange-rates.service';

describe('ExchangeRatesService', () => {
  let rates: jest.Mocked<ExchangeRateRepository>;
  let cache: jest.Mocked<PricingCache>;
  let sut: ExchangeRatesService;

  beforeEach(() => {
    rates = newDouble<ExchangeRateRepository>();
    cache = newDouble<PricingCache>();
    sut = new ExchangeRatesService(rates, cache);
  });

  describe('list', () => {
    it('answers rates without the padding of their numeric column', async () => {
      const row = (rate: string) => ({
        tenantId: TENANT_ID,
        baseCurrency: 'USD',
        quoteCurrency: 'EUR',
        validFrom: '2026-01-01',
        rate,
        updatedAt: new Date(),
      });
      rates.listForTenant.mockResolvedValue([row('0.9200000000'), row('2.0000000000'), row('150')]);

      const answer = await sut.list(principal);

      expect(answer.items.map((r) => r.rate)).toEqual(['0.92', '2', '150']);
      expect(rates.listForTenant).toHaveBeenCalledWith(TENANT_ID);
    });
  });

  describe('put', () => {
    const body = { baseCurrency: 'USD', quoteCurrency: 'EUR', validFrom: '2026-03-01', rate: '0.9500' };

    it('stores the rate for the tenant, then tells the quote caches', async () => {
      const answer = await sut.put(principal, body);

      expect(answer).toEqual({ ...body, rate: '0.95' });
      expect(rates.upsert).toHaveBeenCalledWith(expect.objectContaining({ tenantId: TENANT_ID, ...body }));
      expect(cache.changed).toHaveBeenCalledWith(TENANT_ID);
    });

    it('leaves the caches alone when the write fails', async () => {
      rates.upsert.mockRejectedValue(new Error('connection lost'));
      await expect(sut.put(principal, body)).rejects.toThrow('connection lost');
      expect(cache.changed).not.toHaveBeenCalled();
    });
  });
});
