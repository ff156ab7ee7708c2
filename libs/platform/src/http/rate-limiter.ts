import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { REDIS, redisKey } from '../redis/redis.module';
import type { RedisClient } from '../redis/redis-connection';
import { redisScript } from '../redis/redis-script';
import { RateBudget } from './rate-budget';

// Fixed window counter: one round trip, atomic across replicas.
const CONSUME = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
return {count, ttl}`;

// Adds a batch of hits counted by one replica; the window starts with the first.
const CONSUME_MANY = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/** How often hits counted locally by a batched budget are sent at the latest. */
const BATCH_SYNC_MS = 250;

// Takes one hit back, never below zero and never reviving a window that ended.
const GIVE_BACK = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

export interface RateDecision {
  allowed: boolean;
  count: number;
  /** Seconds until the window resets. */
  retryAfter: number;
}

/** Counters in Redis shared by every replica: request rate limits, failed-login throttling. */
@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly consumeScript: (key: string, windowMs: string) => Promise<[number, number]>;
  private readonly consumeManyScript: (
    key: string,
    windowMs: string,
    hits: string,
  ) => Promise<[number, number]>;
  private readonly giveBackScript: (key: string) => Promise<number>;
  private readonly budgets = new Map<string, RateBudget>();
  private flushTimer?: NodeJS.Timeout;
  private lastWarning = 0;

  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.consumeScript = redisScript(redis, 'fincoreRateConsume', 1, CONSUME);
    this.consumeManyScript = redisScript(redis, 'fincoreRateConsumeMany', 1, CONSUME_MANY);
    this.giveBackScript = redisScript(redis, 'fincoreRateGiveBack', 1, GIVE_BACK);
  }

  key(...parts: string[]): string {
    return redisKey(this.config, 'rl', ...parts);
  }

  /** Counts one hit on `key`; allowed while the count stays within `max` in the window. */
  async consume(key: string, max: number, windowSeconds: number): Promise<RateDecision> {
    try {
      const [count, ttl] = await this.consumeScript(key, String(windowSeconds * 1000));
      return { allowed: count <= max, count, retryAfter: Math.max(1, Math.ceil(ttl / 1000)) };
    } catch (error) {
      // Failing open: a Redis outage must not take the API down with it.
      this.logger.warn(`Rate limiter unavailable, allowing request: ${(error as Error).message}`);
      return { allowed: true, count: 0, retryAfter: 0 };
    }
  }

  /**
   * Like consume, for budgets where a small overshoot is acceptable (request rate limits): hits are
   * counted locally and sent in batches, so most requests make no Redis round trip. The limit is
   * exceeded by at most RATE_LIMIT_TOLERANCE × max hits per replica and window, plus what other
   * replicas sent in the last BATCH_SYNC_MS (see RateBudget). Fails open like consume.
   */
  consumeBatched(key: string, max: number, windowSeconds: number): RateDecision | Promise<RateDecision> {
    const id = `${max}/${windowSeconds}`;
    let budget = this.budgets.get(id);
    if (!budget) {
      budget = new RateBudget(
        { max, windowSeconds, tolerance: this.config.RATE_LIMIT_TOLERANCE, syncMs: BATCH_SYNC_MS },
        (k, hits, windowMs) => this.countMany(k, hits, windowMs),
        (error) => this.warnUnavailable(error),
      );
      this.budgets.set(id, budget);
      this.flushTimer ??= setInterval(() => void this.flushBudgets(), BATCH_SYNC_MS).unref();
    }
    return budget.consume(key);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flushBudgets();
  }

  private async flushBudgets(): Promise<void> {
    await Promise.all([...this.budgets.values()].map((b) => b.flush()));
  }

  private async countMany(
    key: string,
    hits: number,
    windowMs: number,
  ): Promise<{ count: number; ttlMs: number }> {
    const [count, ttlMs] = await this.consumeManyScript(key, String(windowMs), String(hits));
    return { count, ttlMs };
  }

  /** Once a second at most: batches are sent in the background, an outage would repeat it per batch. */
  private warnUnavailable(error: Error): void {
    const now = Date.now();
    if (now - this.lastWarning < 1000) return;
    this.lastWarning = now;
    this.logger.warn(`Rate limiter unavailable, allowing requests: ${error.message}`);
  }

  /** Uncounts one hit on `key`, for an attempt that could not be judged. */
  async giveBack(key: string): Promise<void> {
    await this.giveBackScript(key);
  }

  /** Current count without counting a hit. */
  async peek(key: string): Promise<{ count: number; retryAfter: number }> {
    const [count, ttl] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
    return { count: Number(count ?? 0), retryAfter: Math.max(1, Math.ceil(ttl / 1000)) };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(key);
  }
}
