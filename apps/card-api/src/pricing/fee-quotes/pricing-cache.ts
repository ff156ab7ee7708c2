import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, REDIS, type RedisClient, ReplicatedCacheProvider } from '@fincore/platform';
import { indexTenantPricing, type TenantPricing } from './tenant-pricing';
import { TenantPricingRepository } from './tenant-pricing.repository';

/**
 * Safety net only: every change is announced on Redis and drops the entry at once on every replica;
 * the TTL bounds staleness should a message be lost while a replica was disconnected.
 */
const TTL_MS = 5 * 60_000;

/**
 * Per-tenant pricing in memory so a warm quote needs no PostgreSQL round trip. Writers call
 * changed() after commit: the local entry goes at once and every replica hears it on Redis.
 */
@Injectable()
export class PricingCache extends ReplicatedCacheProvider<TenantPricing> {
  constructor(
    snapshots: TenantPricingRepository,
    @Inject(REDIS) redis: RedisClient,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(redis, config, {
      name: PricingCache.name,
      channelName: 'pricing-changed',
      ttlMs: TTL_MS,
      load: async (tenantId) => indexTenantPricing(await snapshots.loadSnapshot(tenantId)),
    });
  }

  get(tenantId: string): Promise<TenantPricing> {
    return this.cache.get(tenantId);
  }

  /** Call after the change committed. */
  changed(tenantId: string): Promise<void> {
    return this.cache.changed(tenantId);
  }
}
