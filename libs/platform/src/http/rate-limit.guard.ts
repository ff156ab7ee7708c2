import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Principal } from '../context/principal';
import { routeRules } from '../auth/route-rules';
import { rateLimited } from './http.problems';
import { RateDecision, RateLimiter } from './rate-limiter';

type Reply = { header(name: string, value: string): unknown };

/**
 * Per-token (or per-address, before authentication) request budget shared by all replicas, within
 * the tolerance of RateLimiter.consumeBatched.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Each principal's counter key, built once per cached principal rather than per request. */
  private readonly tokenKeys = new WeakMap<Principal, string>();

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (routeRules(this.reflector, context).skipRateLimit) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<{ principal?: Principal; ip?: string }>();
    const reply = http.getResponse<Reply>();
    const max = this.config.RATE_LIMIT_MAX;
    const decision = this.limiter.consumeBatched(
      this.keyOf(request),
      max,
      this.config.RATE_LIMIT_WINDOW_SECONDS,
    );
    // Most hits are counted locally: answered without a promise.
    return decision instanceof Promise
      ? decision.then((d) => this.admit(reply, max, d))
      : this.admit(reply, max, decision);
  }

  private keyOf(request: { principal?: Principal; ip?: string }): string {
    const principal = request.principal;
    if (!principal) return this.limiter.key('http', `ip:${request.ip ?? 'unknown'}`);
    let key = this.tokenKeys.get(principal);
    if (key === undefined) {
      key = this.limiter.key('http', `token:${principal.tokenId}`);
      this.tokenKeys.set(principal, key);
    }
    return key;
  }

  private admit(reply: Reply, max: number, decision: RateDecision): true {
    reply.header('ratelimit-limit', String(max));
    reply.header('ratelimit-remaining', String(Math.max(0, max - decision.count)));
    if (!decision.allowed) {
      throw rateLimited(decision.retryAfter);
    }
    return true;
  }
}
