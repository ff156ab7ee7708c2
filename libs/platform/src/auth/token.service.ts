import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { BoundedMap } from '../cache/bounded-map';
import { APP_CONFIG, AppConfig } from '../config/config';
import { REDIS, tokenRevokedChannel } from '../redis/redis.module';
import type { RedisClient } from '../redis/redis-connection';
import { connectionErrorLog } from '../redis/redis-errors';
import { ApiTokenRepository } from './api-token.repository';
import { Principal } from '../context/principal';
import { hashToken, looksLikeToken } from './token-secret';

interface CacheEntry {
  principal: Principal;
  expiresAt: number;
}

const TOUCH_INTERVAL_MS = 60_000;
/** Most tokens held; the oldest go first beyond it. */
export const MAX_CACHED_TOKENS = 10_000;

/**
 * Resolves x-auth-token values to principals. Positive answers are cached briefly; a revocation
 * (published on Redis by the CLI) clears the cache of every replica at once, the TTL bounds the
 * staleness should that message be missed.
 */
@Injectable()
export class TokenService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(TokenService.name);
  /**
   * Keyed by the token as presented (process memory only, never logged): a hit costs no hash. Only
   * tokens found active are held, so a flood of made-up tokens cannot grow it.
   */
  private readonly cache = new BoundedMap<string, CacheEntry>(MAX_CACHED_TOKENS);
  private readonly lastTouched = new Map<string, number>();
  /**
   * Bumped by every revocation heard: a lookup that read the token before its revocation committed
   * may answer once, but is not cached past the message that would have cleared it.
   */
  private revocations = 0;
  private subscriber?: RedisClient;

  constructor(
    @Inject(ApiTokenRepository) private readonly tokens: ApiTokenRepository,
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('message', (_channel, tokenId: string) => this.forget(tokenId));
    // After a reconnect revocations may have been missed: start cold rather than stale.
    this.subscriber.on('ready', () => this.forgetAll());
    this.subscriber.on(
      'error',
      connectionErrorLog('Token revocation subscriber', (m) => this.logger.warn(m)),
    );
    await this.subscriber.subscribe(tokenRevokedChannel(this.config)).catch((e: Error) => {
      this.logger.warn(`Cannot subscribe to token revocations: ${e.message}`);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  forget(tokenId: string): void {
    this.revocations += 1;
    for (const [token, entry] of this.cache)
      if (entry.principal.tokenId === tokenId) this.cache.delete(token);
  }

  private forgetAll(): void {
    this.revocations += 1;
    this.cache.clear();
  }

  /**
   * The principal of a token the cache holds, without waiting: undefined when it must be looked up
   * (authenticate does). Only tokens that looked like tokens are held, so no pattern check first.
   */
  cachedPrincipal(token: string): Principal | undefined {
    const cached = this.cache.get(token);
    if (!cached) return undefined;
    const now = Date.now();
    if (cached.expiresAt <= now) return undefined;
    this.touch(cached.principal.tokenId, now);
    return cached.principal;
  }

  async authenticate(token: string): Promise<Principal | undefined> {
    if (!looksLikeToken(token)) return undefined;
    const cached = this.cachedPrincipal(token);
    if (cached) return cached;
    const now = Date.now();
    const revocationsBefore = this.revocations;
    const found = await this.tokens.findActiveByHash(hashToken(token));
    if (!found) {
      this.cache.delete(token);
      return undefined;
    }
    const principal: Principal = {
      tokenId: found.id,
      tenantId: found.tenantId,
      tenantCode: found.tenantCode,
      scopes: Object.freeze([...found.scopes]),
    };
    if (this.config.TOKEN_CACHE_SECONDS > 0 && this.revocations === revocationsBefore) {
      this.cache.set(token, { principal, expiresAt: now + this.config.TOKEN_CACHE_SECONDS * 1000 });
    }
    this.touch(found.id, now);
    return principal;
  }

  /** Keeps last_used_at to the minute without a write per request. */
  private touch(tokenId: string, now: number): void {
    const last = this.lastTouched.get(tokenId) ?? 0;
    if (now - last < TOUCH_INTERVAL_MS) return;
    this.lastTouched.set(tokenId, now);
    this.tokens
      .touchLastUsed(tokenId)
      .catch((e: Error) => this.logger.warn(`Could not record token use: ${e.message}`));
  }
}
