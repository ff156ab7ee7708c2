import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { REDIS, redisKey } from '../redis/redis.module';
import type { RedisClient } from '../redis/redis-connection';
import { redisScript } from '../redis/redis-script';

// Fixed window counter: one round trip, atomic across replicas.
const CONSUME = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
return {count, ttl}`;

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
export class RateLimiter {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly consumeScript: (key: string, windowMs: string) => Promise<[number, number]>;
  private readonly giveBackScript: (key: string) => Promise<number>;

  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.consumeScript = redisScript(redis, 'fincoreRateConsume', 1, CONSUME);
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
