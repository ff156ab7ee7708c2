import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig, closeRedisClient, createQueueConnection } from '@fincore/platform';
import { Cluster } from 'ioredis';
import { OutboxEventEntity } from './outbox.entity';
import { OutboxPublisher } from './outbox-publisher';
import { OutboxRelay } from './outbox-relay';
import { OutboxRepository } from './outbox.repository';
import { QueueErrorLog } from './queue-error-log';
import { domainEventJobOptions, QueueName, queuePrefix } from './queues';
import { UnitOfWork } from './unit-of-work';

const QUEUE_CONNECTION = Symbol('QUEUE_CONNECTION');

/** A cluster connection is shared by the queues and workers, which leave it open: it closes here. */
@Injectable()
class QueueConnectionCloser implements OnApplicationShutdown {
  constructor(
    @Inject(QUEUE_CONNECTION) private readonly connection: ReturnType<typeof createQueueConnection>,
  ) {}
  async onApplicationShutdown(): Promise<void> {
    if (this.connection instanceof Cluster) await closeRedisClient(this.connection);
  }
}

/** BullMQ root for an app: connection and hash-tagged prefix from the configuration. */
export const QueueRootModule = BullModule.forRootAsync({
  inject: [APP_CONFIG, QUEUE_CONNECTION],
  useFactory: (config: AppConfig, connection: ReturnType<typeof createQueueConnection>) => ({
    connection,
    prefix: queuePrefix(config.QUEUE_PREFIX),
  }),
  extraProviders: [
    { provide: QUEUE_CONNECTION, inject: [APP_CONFIG], useFactory: createQueueConnection },
    QueueConnectionCloser,
  ],
});

@Module({})
export class EventsModule {
  /**
   * Outbox, unit of work and publisher for apps that emit events; `relay: true` (the API apps) also
   * runs the relay loop that publishes what a crash left behind.
   */
  static forRoot(options: { relay: boolean }): DynamicModule {
    return {
      module: EventsModule,
      global: true,
      imports: [
        DiscoveryModule,
        QueueRootModule,
        BullModule.registerQueueAsync({
          name: QueueName.DomainEvents,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({
            defaultJobOptions: domainEventJobOptions(config.DOMAIN_EVENT_ATTEMPTS, config),
          }),
        }),
        TypeOrmModule.forFeature([OutboxEventEntity]),
      ],
      providers: [
        OutboxRepository,
        OutboxPublisher,
        UnitOfWork,
        QueueErrorLog,
        ...(options.relay ? [OutboxRelay] : []),
      ],
      exports: [
        OutboxRepository,
        OutboxPublisher,
        UnitOfWork,
        BullModule,
        TypeOrmModule,
        ...(options.relay ? [OutboxRelay] : []),
      ],
    };
  }
}
