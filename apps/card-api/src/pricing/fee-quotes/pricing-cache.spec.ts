import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { AppConfig } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import { priceListDocument, TENANT_ID } from '@test/support/fixtures/pricing';
import { PricingCache } from './pricing-cache';
import type { TenantPricingDocuments } from './tenant-pricing';
import type { TenantPricingRepository } from './tenant-pricing.repository';

const CHANNEL = '{test}:pricing-changed';
const snapshot = (): TenantPricingDocuments => ({
  transactionTypes: [{ code: 'ATM_WITHDRAWAL', zeroAmountAllowed: false }],
  labels: ['DOMESTIC'],
  priceLists: [
    priceListDocument(),
    priceListDocument({ id: 'pl-acc', level: 'ACCOUNT', accountId: 'ACC-1' }),
    priceListDocument({ id: 'pl-card', level: 'CARD', cardId: 'CARD-1' }),
  ],
  rates: [{ baseCurrency: 'USD', quoteCurrency: 'EUR', validFrom: '2026-01-01', rate: '0.92' }],
});

describe('PricingCache', () => {
  let snapshots: jest.Mocked<TenantPricingRepository>;
  let redis: jest.Mocked<Redis>;
  let subscriber: jest.Mocked<Redis>;
  let sut: PricingCache;

  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    snapshots = newDouble<TenantPricingRepository>();
    snapshots.loadSnapshot.mockImplementation(async () => snapshot());
    subscriber = newDouble<Redis>();
    subscriber.subscribe.mockResolvedValue(1);
    redis = newDouble<Redis>();
    redis.duplicate.mockReturnValue(subscriber);
    redis.publish.mockResolvedValue(1);
    sut = new PricingCache(snapshots, redis, { QUEUE_PREFIX: 'test' } as AppConfig);
  });

  afterEach(() => jest.restoreAllMocks());

  describe('get', () => {
    it("loads a tenant's pricing once, indexed by level and owner", async () => {
      const first = await sut.get(TENANT_ID);
      const second = await sut.get(TENANT_ID);

      expect(second).toBe(first);
      expect(snapshots.loadSnapshot).toHaveBeenCalledTimes(1);
      expect(first.tenantLists.map((l) => l.id)).toEqual(['pl-standard']);
      expect(first.accountLists.get('ACC-1')?.map((l) => l.id)).toEqual(['pl-acc']);
      expect(first.cardLists.get('CARD-1')?.map((l) => l.id)).toEqual(['pl-card']);
      expect(first.transactionTypes.get('ATM_WITHDRAWAL')).toEqual({ zeroAmountAllowed: false });
      expect(first.rates[0].rate.toFixed()).toBe('0.92');
    });

    it('shares one load between concurrent callers', async () => {
      const [a, b] = await Promise.all([sut.get(TENANT_ID), sut.get(TENANT_ID)]);
      expect(a).toBe(b);
      expect(snapshots.loadSnapshot).toHaveBeenCalledTimes(1);
    });

    it('loads again once the entry is five minutes old', async () => {
      const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
      await sut.get(TENANT_ID);
      now.mockReturnValue(1_000_000 + 5 * 60_000 - 1);
      await sut.get(TENANT_ID);
      expect(snapshots.loadSnapshot).toHaveBeenCalledTimes(1);
      now.mockReturnValue(1_000_000 + 5 * 60_000);
      await sut.get(TENANT_ID);
      expect(snapshots.loadSnapshot).toHaveBeenCalledTimes(2);
    });

    it('does not keep a load that raced with a change', async () => {
      let finish: (docs: TenantPricingDocuments) => void = () => undefined;
      snapshots.loadSnapshot.mockReturnValueOnce(new Promise((resolve) => (finish = resolve)));
      const racing = sut.get(TENANT_ID);
      await sut.changed(TENANT_ID);
      finish(snapshot());
      await racing;

      await sut.get(TENANT_ID);
      expect(snapshots.loadSnapshot).toHaveBeenCalledTimes(2);
    });
  });

  describe('changed', () => {
    it('drops the entry here and announces the tenant to the other replicas', async () => {
      await sut.get(TENANT_ID);
      await sut.changed(TENANT_ID);
      await sut.get(TENANT_ID);

      expect(snapshots.loadSnapshot).toHaveBeenCalledTimes(2);
      expect(redis.publish).toHaveBeenCalledWith(CHANNEL, TENANT_ID);
    });

    it('still drops the entry when the announcement fails', async () => {
      redis.publish.mockRejectedValue(new Error('redis down'));
      await sut.get(TENANT_ID);
      await expect(sut.changed(TENANT_ID)).resolves.toBeUndefined();
      await sut.get(TENANT_ID);
      expect(snapshots.loadSnapshot).toHaveBeenCalledTimes(2);
    });
  });

  describe('onModuleInit', () => {
    const handler = (event: string) => {
      const call = subscriber.on.mock.calls.find(([name]) => name === event);
      if (!call) throw new Error(`no ${event} handler`);
      return call[1] as (...args: string[]) => void;
    };

    it("drops a tenant's entry when another replica announces a change", async () => {
      await sut.onModuleInit();
      expect(subscriber.subscribe).toHaveBeenCalledWith(CHANNEL);
      await sut.get(TENANT_ID);
      await sut.get('other-tenant');

      handler('message')(CHANNEL, TENANT_ID);
      await sut.get(TENANT_ID);
      await sut.get('other-tenant');

      expect(snapshots.loadSnapshot.mock.calls.map(([id]) => id)).toEqual([
        TENANT_ID,
        'other-tenant',
        TENANT_ID,
      ]);
    });

    it('starts cold after the subscriber reconnects', async () => {
      await sut.onModuleInit();
      await sut.get(TENANT_ID);
      handler('ready')();
      await sut.get(TENANT_ID);
      expect(snapshots.loadSnapshot).toHaveBeenCalledTimes(2);
    });
  });
});
