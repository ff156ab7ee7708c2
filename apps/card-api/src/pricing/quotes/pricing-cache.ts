import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig, REDIS, redisKey, ReplicatedCache } from '@fincore/platform';
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
export class PricingCache implements OnModuleInit, OnApplicationShutdown {
  private readonly cache: ReplicatedCache<TenantPricing>;

  constructor(
    snapshots: TenantPricingRepository,
    @Inject(REDIS) redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cache = new ReplicatedCache({
      name: PricingCache.name,
      redis,
      channel: redisKey(config, 'pricing-changed'),
      ttlMs: TTL_MS,
      load: async (tenantId) => indexTenantPricing(await snapshots.loadSnapshot(tenantId)),
    });
  }

  onModuleInit(): Promise<void> {
    return this.cache.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.cache.stop();
  }

  get(tenantId: string): Promise<TenantPricing> {
    return this.cache.get(tenantId);
  }

  /** Call after the change committed. */
  changed(tenantId: string): Promise<void> {
    return this.cache.changed(tenantId);
  }
}
