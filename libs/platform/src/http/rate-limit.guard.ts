import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Principal } from '../auth/principal';
import { routeRules } from '../auth/route-rules';
import { ProblemException } from '../errors/problem';
import { RateLimiter } from './rate-limiter';

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

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (routeRules(this.reflector, context).skipRateLimit) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<{ principal?: Principal; ip?: string }>();
    const reply = http.getResponse<{ header(name: string, value: string): unknown }>();
    const subject = request.principal
      ? `token:${request.principal.tokenId}`
      : `ip:${request.ip ?? 'unknown'}`;
    const window = this.config.RATE_LIMIT_WINDOW_SECONDS;
    const max = this.config.RATE_LIMIT_MAX;
    const decision = await this.limiter.consumeBatched(this.limiter.key('http', subject), max, window);
    reply.header('ratelimit-limit', String(max));
    reply.header('ratelimit-remaining', String(Math.max(0, max - decision.count)));
    if (!decision.allowed) {
      throw new ProblemException('rate_limited', 429, { retryAfter: decision.retryAfter }, undefined, {
        'retry-after': String(decision.retryAfter),
      });
    }
    return true;
  }
}
