import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '@fincore/platform';
import { OutboxEventEntity } from './outbox.entity';
import { OutboxPublisher } from './outbox-publisher';
import { OutboxRelay } from './outbox-relay';
import { OutboxRepository } from './outbox.repository';
import { domainEventJobOptions, QueueName, queuePrefix, redisConnectionOptions } from './queues';
import { UnitOfWork } from './unit-of-work';

/** BullMQ root for an app: connection and hash-tagged prefix from the configuration. */
export const QueueRootModule = BullModule.forRootAsync({
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => ({
    connection: redisConnectionOptions(config.REDIS_URL),
    prefix: queuePrefix(config.QUEUE_PREFIX),
  }),
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
      providers: [OutboxRepository, OutboxPublisher, UnitOfWork, ...(options.relay ? [OutboxRelay] : [])],
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
