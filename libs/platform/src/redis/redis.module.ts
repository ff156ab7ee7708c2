import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/config';

export const REDIS = Symbol('REDIS');

/** Namespaces every Redis key of this stack, so several stacks (or test runs) share one Redis. */
export function redisKey(config: AppConfig, ...parts: string[]): string {
  return [`{${config.QUEUE_PREFIX}}`, ...parts].join(':');
}

export function tokenRevokedChannel(config: AppConfig): string {
  return redisKey(config, 'token-revoked');
}

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new Redis(config.REDIS_URL, {
          maxRetriesPerRequest: 2,
          // A frozen Redis keeps the socket open and answers nothing: without a bound, nor would we.
          commandTimeout: config.REDIS_COMMAND_TIMEOUT_MS,
          enableOfflineQueue: true,
          lazyConnect: false,
        }),
    },
    RedisCloser,
  ],
  exports: [REDIS],
})
export class RedisModule {}
