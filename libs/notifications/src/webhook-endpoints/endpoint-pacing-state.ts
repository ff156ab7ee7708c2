import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, REDIS, RedisClient, redisKey } from '@fincore/platform';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';

/**
 * Where an endpoint's delivery pacing lives in Redis (next free slot, last send, Retry-After pause,
 * reservations of waiting deliveries), under the stack's hash-tagged prefix: the notifier paces
 * with it, the API resets it when the tenant says the receiver is ready again. The Retry-After
 * pause is also on the endpoint row, where attempts to endpoints without a rate limit read it.
 */
@Injectable()
export class EndpointPacingState {
  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly endpoints: WebhookEndpointRepository,
  ) {}

  key(endpointId: string, ...parts: string[]): string {
    return redisKey(this.config, 'endpoint-pace', endpointId, ...parts);
  }

  /** Forgets the endpoint's pause and slots; reservations of waiting deliveries expire on their own. */
  async reset(endpointId: string): Promise<void> {
    await Promise.all([
      this.redis.del(
        this.key(endpointId, 'next'),
        this.key(endpointId, 'last'),
        this.key(endpointId, 'paused'),
      ),
      this.endpoints.liftPause(endpointId),
    ]);
  }
}
