import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, RateLimiter } from '@fincore/platform';
import { usernameKey } from './domain/credentials';
import { credentialsLocked } from './person.problems';

/** One password check counted against a username: which one it was in the current window. */
export interface PasswordCheck {
  keys: { failures: string; lock: string };
  /** 1 for the first check of the window; 0 when the throttle could not count it (Redis down). */
  ordinal: number;
}

/**
 * Throttles password guessing per tenant and username, in Redis so every replica shares it: after
 * AUTH_MAX_FAILURES failed checks within AUTH_LOCKOUT_SECONDS the username is locked for
 * AUTH_LOCKOUT_SECONDS. Unknown usernames are counted and locked alike, so a lock reveals nothing.
 *
 * A check is counted when it starts, not when it fails: otherwise a burst of parallel guesses
 * would all pass the lock before the first failure is recorded, and get far more than
 * AUTH_MAX_FAILURES passwords verified.
 */
@Injectable()
export class LoginThrottle {
  private readonly logger = new Logger(LoginThrottle.name);

  constructor(
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // Hashed: keys stay short and Redis holds no usernames.
  private keys(tenantId: string, username: string) {
    const subject = createHash('sha256')
      .update(`${tenantId}\0${usernameKey(username)}`)
      .digest('hex');
    return {
      failures: this.limiter.key('auth-failures', subject),
      lock: this.limiter.key('auth-lock', subject),
    };
  }

  /**
   * Counts a password check before it runs: 429 with Retry-After while the username is locked, or
   * when failed and still running checks of the window already reach AUTH_MAX_FAILURES.
   */
  async startCheck(tenantId: string, username: string): Promise<PasswordCheck> {
    const keys = this.keys(tenantId, username);
    let lock: { count: number; retryAfter: number };
    try {
      lock = await this.limiter.peek(keys.lock);
    } catch (error) {
      // Same policy as the request limiter: a Redis outage must not stop every login.
      this.logger.warn(`Login throttle unavailable, not checking lock: ${(error as Error).message}`);
      return { keys, ordinal: 0 };
    }
    if (lock.count > 0) throw credentialsLocked(lock.retryAfter);
    const check = await this.limiter.consume(
      keys.failures,
      this.config.AUTH_MAX_FAILURES,
      this.config.AUTH_LOCKOUT_SECONDS,
    );
    if (!check.allowed) throw credentialsLocked(check.retryAfter);
    return { keys, ordinal: check.count };
  }

  /**
   * The check failed: it stays counted, and the one that reaches the limit locks the username. The
   * count is not reset then: checks that passed the lock just before it was set would find a fresh
   * budget. It needs no reset either, as its window began with the first check and so ends before
   * the lock does.
   */
  async recordFailure(check: PasswordCheck): Promise<void> {
    if (check.ordinal < this.config.AUTH_MAX_FAILURES) return;
    // The lock runs its full time from the last allowed failure, not from the first.
    await this.limiter.consume(check.keys.lock, 1, this.config.AUTH_LOCKOUT_SECONDS);
  }

  /**
   * The check could not be judged (PostgreSQL was unavailable, say): it does not count against the
   * username, or an outage under steady logins would lock every username it touched.
   */
  async abandon(check: PasswordCheck): Promise<void> {
    if (check.ordinal === 0) return;
    await this.limiter.giveBack(check.keys.failures).catch((error: Error) => {
      this.logger.warn(`Login throttle unavailable, check stays counted: ${error.message}`);
    });
  }

  /** A proven password clears the failures (not a running lock). */
  async recordSuccess(check: PasswordCheck): Promise<void> {
    await this.limiter.reset(check.keys.failures).catch(() => undefined);
  }

  /** An operator setting new credentials ends any lock on that username. */
  async clear(tenantId: string, username: string): Promise<void> {
    const keys = this.keys(tenantId, username);
    await Promise.all([this.limiter.reset(keys.failures), this.limiter.reset(keys.lock)]).catch(
      () => undefined,
    );
  }
}
