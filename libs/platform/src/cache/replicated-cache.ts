import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { RedisClient } from '../redis/redis-connection';
import { connectionErrorLog } from '../redis/redis-errors';
import type { AppConfig } from '../config/config';
import { redisKey } from '../redis/redis.module';
import { BoundedMap } from './bounded-map';

export interface ReplicatedCacheOptions<V> {
  /** Name in log lines. */
  name: string;
  /** Connection whose duplicate subscribes; the connection itself publishes. */
  redis: RedisClient;
  /** Pub/sub channel on which every replica announces the keys it changed. */
  channel: string;
  /** Safety net only: bounds staleness should an announcement be lost while a replica was disconnected. */
  ttlMs: number;
  load(key: string): Promise<V>;
  /** Whether a loaded value is kept (e.g. not "not found", which a writer may not announce). */
  keep?(value: V): boolean;
  /** Most entries held; the oldest go first beyond it. */
  maxEntries?: number;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * Values loaded from PostgreSQL, held in memory by every replica and dropped on every replica
 * when one of them announces a change on Redis. Writers call changed() after commit. A load that
 * raced with a change is not kept; after the subscriber reconnects (announcements may have been
 * missed) every entry goes.
 */
export class ReplicatedCache<V> {
  private readonly logger: Logger;
  private readonly entries: Map<string, Entry<V>>;
  private readonly loading = new Map<string, Promise<V>>();
  private subscriber?: RedisClient;

  constructor(private readonly options: ReplicatedCacheOptions<V>) {
    this.logger = new Logger(options.name);
    this.entries = new BoundedMap(options.maxEntries ?? Infinity);
  }

  async start(): Promise<void> {
    this.subscriber = this.options.redis.duplicate();
    this.subscriber.on('message', (_channel: string, key: string) => this.forget(key));
    this.subscriber.on('ready', () => this.forgetAll());
    this.subscriber.on(
      'error',
      connectionErrorLog('Change subscriber', (m) => this.logger.warn(m)),
    );
    await this.subscriber
      .subscribe(this.options.channel)
      .catch((e: Error) => this.logger.warn(`Cannot subscribe to changes: ${e.message}`));
  }

  async stop(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  get(key: string): Promise<V> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > Date.now()) return Promise.resolve(entry.value);
    const pending = this.loading.get(key);
    if (pending) return pending;
    const load: Promise<V> = this.options.load(key).then((value) => {
      // Only while this load still holds the slot: a change in the meantime dropped it.
      if (this.loading.get(key) === load) {
        this.loading.delete(key);
        if (this.options.keep?.(value) ?? true) this.remember(key, value);
      }
      return value;
    });
    load.catch(() => {
      if (this.loading.get(key) === load) this.loading.delete(key);
    });
    this.loading.set(key, load);
    return load;
  }

  /** Call after the change committed: drops the key here at once and on every other replica. */
  async changed(key: string): Promise<void> {
    this.forget(key);
    await this.options.redis.publish(this.options.channel, key).catch((e: Error) => {
      this.logger.warn(`Could not announce a change of ${key}: ${e.message}`);
    });
  }

  private remember(key: string, value: V): void {
    this.entries.set(key, { value, expiresAt: Date.now() + this.options.ttlMs });
  }

  private forget(key: string): void {
    this.entries.delete(key);
    this.loading.delete(key);
  }

  private forgetAll(): void {
    this.entries.clear();
    this.loading.clear();
  }
}

/**
 * Base of an injectable that holds one ReplicatedCache: starts and stops it with the app, and names
 * its channel under the app's Redis prefix.
 */
export abstract class ReplicatedCacheProvider<V> implements OnModuleInit, OnApplicationShutdown {
  protected readonly cache: ReplicatedCache<V>;

  protected constructor(
    redis: RedisClient,
    config: AppConfig,
    options: Omit<ReplicatedCacheOptions<V>, 'redis' | 'channel'> & { channelName: string },
  ) {
    const { channelName, ...rest } = options;
    this.cache = new ReplicatedCache({ ...rest, redis, channel: redisKey(config, channelName) });
  }

  onModuleInit(): Promise<void> {
    return this.cache.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.cache.stop();
  }
}
