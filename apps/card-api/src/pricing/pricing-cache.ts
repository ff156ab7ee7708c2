import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Decimal from 'decimal.js';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig, REDIS, redisKey } from '@fincore/platform';
import { toPriceList, type PriceListDocument } from './domain/fee-rule-document';
import type { ExchangeRate, PriceList } from './domain/pricing-model';

/** Everything a quote needs from the pricing schema, for one tenant, indexed for the hot path. */
export interface TenantPricing {
  transactionTypes: ReadonlyMap<string, { zeroAmountAllowed: boolean }>;
  labels: ReadonlySet<string>;
  tenantLists: readonly PriceList[];
  accountLists: ReadonlyMap<string, PriceList[]>;
  cardLists: ReadonlyMap<string, PriceList[]>;
  rates: readonly ExchangeRate[];
}

interface Entry {
  value: TenantPricing;
  expiresAt: number;
}

/**
 * Safety net only: every change is announced on Redis and drops the entry at once on every replica;
 * the TTL bounds staleness should a message be lost while a replica was disconnected.
 */
const TTL_MS = 5 * 60_000;

interface Row {
  types: Array<{ code: string; zeroAmountAllowed: boolean }>;
  labels: string[];
  price_lists: PriceListDocument[];
  rates: Array<{ baseCurrency: string; quoteCurrency: string; validFrom: string; rate: string }>;
}

/** One round trip loads a tenant's whole pricing (dates as text, numerics as strings). */
const LOAD_SQL = `
  SELECT
    (SELECT coalesce(json_agg(json_build_object('code', code, 'zeroAmountAllowed', zero_amount_allowed)), '[]'::json)
       FROM pricing.transaction_types WHERE tenant_id = $1) AS types,
    (SELECT coalesce(json_agg(code), '[]'::json) FROM pricing.labels WHERE tenant_id = $1) AS labels,
    (SELECT coalesce(json_agg(json_build_object(
              'id', id, 'code', code, 'level', level, 'accountId', account_id, 'cardId', card_id,
              'validFrom', to_char(valid_from, 'YYYY-MM-DD'), 'validTo', to_char(valid_to, 'YYYY-MM-DD'), 'rules', rules)), '[]'::json)
       FROM pricing.price_lists WHERE tenant_id = $1) AS price_lists,
    (SELECT coalesce(json_agg(json_build_object(
              'baseCurrency', base_currency, 'quoteCurrency', quote_currency,
              'validFrom', to_char(valid_from, 'YYYY-MM-DD'), 'rate', rate::text)), '[]'::json)
       FROM pricing.exchange_rates WHERE tenant_id = $1) AS rates`;

function index(row: Row): TenantPricing {
  const lists = row.price_lists.map(toPriceList);
  const group = (level: PriceList['level'], key: (l: PriceList) => string | null) => {
    const map = new Map<string, PriceList[]>();
    for (const l of lists) {
      const k = key(l);
      if (l.level !== level || k === null) continue;
      map.set(k, [...(map.get(k) ?? []), l]);
    }
    return map;
  };
  return {
    transactionTypes: new Map(row.types.map((t) => [t.code, { zeroAmountAllowed: t.zeroAmountAllowed }])),
    labels: new Set(row.labels),
    tenantLists: lists.filter((l) => l.level === 'TENANT'),
    accountLists: group('ACCOUNT', (l) => l.accountId),
    cardLists: group('CARD', (l) => l.cardId),
    rates: row.rates.map((r) => ({ ...r, rate: new Decimal(r.rate) })),
  };
}

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
  private subscriber?: Redis;
  private readonly channel: string;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
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
    const [row] = (await this.db.query(LOAD_SQL, [tenantId])) as Row[];
    return index(row);
  }
}
