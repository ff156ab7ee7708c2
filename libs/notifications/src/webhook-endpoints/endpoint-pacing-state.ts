import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, REDIS, RedisClient, redisKey } from '@fincore/platform';

/**
 * Where an endpoint's delivery pacing lives in Redis (next free slot, last send, Retry-After pause,
 * reservations of waiting deliveries), under the stack's hash-tagged prefix: the notifier paces
 * with it, the API resets it when the tenant says the receiver is ready again.
 */
@Injectable()
export class EndpointPacingState {
  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  key(endpointId: string, ...parts: string[]): string {
    return redisKey(this.config, 'endpoint-pace', endpointId, ...parts);
  }

  /** Forgets the endpoint's pause and slots; reservations of waiting deliveries expire on their own. */
  async reset(endpointId: string): Promise<void> {
    await this.redis.del(
      this.key(endpointId, 'next'),
      this.key(endpointId, 'last'),
      this.key(endpointId, 'paused'),
    );
  }
}
