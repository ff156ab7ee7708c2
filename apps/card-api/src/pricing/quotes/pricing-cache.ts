import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig, REDIS, type RedisClient, redisKey } from '@fincore/platform';
import { indexTenantPricing, type TenantPricing } from './tenant-pricing';
import { TenantPricingRepository } from './tenant-pricing.repository';

interface Entry {
  value: TenantPricing;
  expiresAt: number;
}

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
  private readonly logger = new Logger(PricingCache.name);
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<TenantPricing>>();
  /** Bumped on every invalidation, so a load that raced with a change is not kept. */
  private readonly generations = new Map<string, number>();
  private subscriber?: RedisClient;
  private readonly channel: string;

  constructor(
    private readonly snapshots: TenantPricingRepository,
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.channel = redisKey(config, 'pricing-changed');
  }

  async onModuleInit(): Promise<void> {
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('message', (_channel, tenantId: string) => this.forget(tenantId));
    // After a reconnect messages may have been missed: start cold rather than stale.
    this.subscriber.on('ready', () => this.forgetAll());
    this.subscriber.on('error', (e: Error) => this.logger.warn(`Pricing change subscriber: ${e.message}`));
    await this.subscriber
      .subscribe(this.channel)
      .catch((e: Error) => this.logger.warn(`Cannot subscribe to pricing changes: ${e.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  async get(tenantId: string): Promise<TenantPricing> {
    const entry = this.entries.get(tenantId);
    if (entry && entry.expiresAt > Date.now()) return entry.value;
    const pending = this.loading.get(tenantId);
    if (pending) return pending;
    const generation = this.generations.get(tenantId) ?? 0;
    const load = this.load(tenantId)
      .then((value) => {
        if ((this.generations.get(tenantId) ?? 0) === generation)
          this.entries.set(tenantId, { value, expiresAt: Date.now() + TTL_MS });
        return value;
      })
      // Only this load's own slot: after an invalidation a newer load may already sit there.
      .finally(() => {
        if (this.loading.get(tenantId) === load) this.loading.delete(tenantId);
      });
    this.loading.set(tenantId, load);
    return load;
  }

  /** Call after the change committed. */
  async changed(tenantId: string): Promise<void> {
    this.forget(tenantId);
    await this.redis.publish(this.channel, tenantId).catch((e: Error) => {
      this.logger.warn(`Could not announce a pricing change of tenant ${tenantId}: ${e.message}`);
    });
  }

  private forget(tenantId: string): void {
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
    this.entries.delete(tenantId);
    this.loading.delete(tenantId);
  }

  private forgetAll(): void {
    for (const tenantId of new Set([...this.entries.keys(), ...this.loading.keys()])) this.forget(tenantId);
  }

  private async load(tenantId: string): Promise<TenantPricing> {
    return indexTenantPricing(await this.snapshots.loadSnapshot(tenantId));
  }
}
