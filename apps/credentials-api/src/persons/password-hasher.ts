import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Algorithm, hash, parseOptions, verify } from '@node-rs/argon2';
import { APP_CONFIG, AppConfig } from '@fincore/platform';
import { needsRehash, normalizePassword } from './domain/credentials';

// The ambient const enum is not usable under isolatedModules; its runtime value is 2.
const ARGON2ID = 2 as Algorithm;

type HashCostSettings = Pick<AppConfig, 'PASSWORD_HASH_MEMORY_KIB' | 'PASSWORD_HASH_ITERATIONS'>;

function argon2idOptions(config: HashCostSettings) {
  return {
    algorithm: ARGON2ID,
    memoryCost: config.PASSWORD_HASH_MEMORY_KIB,
    timeCost: config.PASSWORD_HASH_ITERATIONS,
    parallelism: 1,
  };
}

/** argon2id PHC string of the password with the configured cost (also used by the demo seed). */
export function hashPassword(password: string, config: HashCostSettings): Promise<string> {
  return hash(normalizePassword(password), argon2idOptions(config));
}

/**
 * argon2id with the configured cost (OWASP: 19 MiB, 2 passes, 1 lane). @node-rs/argon2 runs on the
 * libuv thread pool, so hashing never blocks the event loop.
 */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private readonly logger = new Logger(PasswordHasher.name);
  private dummyHash?: Promise<string>;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onModuleInit(): Promise<void> {
    return this.dummy().then(() => undefined);
  }

  /** A hash of a random password, made once with the current cost, to verify against when nobody matches. */
  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(32).toString('base64'), this.config);
    return this.dummyHash;
  }

  hash(password: string): Promise<string> {
    return hashPassword(password, this.config);
  }

  async verify(storedHash: string, password: string): Promise<boolean> {
    try {
      return await verify(storedHash, normalizePassword(password));
    } catch (error) {
      // A stored hash we cannot read is our defect, but must not open the door: treat it as a mismatch.
      this.logger.error(`Unreadable password hash: ${(error as Error).message}`);
      return false;
    }
  }

  /** Spends the time of a real verification and fails, so "no such person" cannot be told apart by timing. */
  async verifyNobody(password: string): Promise<false> {
    await verify(await this.dummy(), normalizePassword(password)).catch(() => false);
    return false;
  }

  needsRehash(storedHash: string): boolean {
    try {
      const stored = parseOptions(storedHash);
      return needsRehash(
        stored,
        { memoryCost: this.config.PASSWORD_HASH_MEMORY_KIB, timeCost: this.config.PASSWORD_HASH_ITERATIONS },
        ARGON2ID,
      );
    } catch {
      return true;
    }
  }
}
