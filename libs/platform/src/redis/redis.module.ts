import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { closeRedisClient, createRedisClient, type RedisClient } from './redis-connection';
import { logConnectionErrors } from './redis-errors';

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
  constructor(@Inject(REDIS) private readonly redis: RedisClient) {}
  async onApplicationShutdown(): Promise<void> {
    await closeRedisClient(this.redis);
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        logConnectionErrors(
          createRedisClient(config, {
            maxRetriesPerRequest: 2,
            // A frozen Redis keeps the socket open and answers nothing: without a bound, nor would we.
            commandTimeout: config.REDIS_COMMAND_TIMEOUT_MS,
            enableOfflineQueue: true,
          }),
          'Redis connection',
        ),
    },
    RedisCloser,
  ],
  exports: [REDIS],
})
export class RedisModule {}
