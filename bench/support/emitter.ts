import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { createDataSource } from '@fincore/database';
import {
  domainEventJobOptions,
  EventData,
  OutboxEventEntity,
  OutboxPublisher,
  OutboxRepository,
  QueueName,
  queuePrefix,
  redisConnectionOptions,
  UnitOfWork,
} from '@fincore/events';
import { loadConfig } from '@fincore/platform';
import { BenchWorld } from './world';

/**
 * Emits events in the benchmark process exactly as an API's change does, without the request:
 * fincore's own UnitOfWork writes the outbox row (marked published) in a transaction and enqueues
 * the `domain-events` job after commit, on the run's database and queue prefix. For events whose
 * data no API request can carry.
 */
export class BenchEmitter {
  private constructor(
    private readonly ds: DataSource,
    private readonly queue: Queue,
    private readonly publisher: OutboxPublisher,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** `env`: the fincore processes' settings, so jobs get the options the APIs give them. */
  static async open(world: BenchWorld, env: Record<string, string>): Promise<BenchEmitter> {
    const config = loadConfig(env);
    const ds = createDataSource({ DATABASE_URL: world.databaseUrl }, [OutboxEventEntity]);
    await ds.initialize();
    const queue = new Queue(QueueName.DomainEvents, {
      connection: redisConnectionOptions(config.REDIS_URL),
      prefix: queuePrefix(config.QUEUE_PREFIX),
      defaultJobOptions: domainEventJobOptions(config.DOMAIN_EVENT_ATTEMPTS, config),
    });
    const outbox = new OutboxRepository(ds);
    const publisher = new OutboxPublisher(outbox, queue);
    return new BenchEmitter(ds, queue, publisher, new UnitOfWork(ds, outbox, publisher));
  }

  async emitPersonUpdated(tenantCode: string, data: EventData<'PERSON_UPDATED'>): Promise<void> {
    await this.unitOfWork.run((tx) => tx.emit('PERSON_UPDATED', tenantCode, data));
  }

  /** Waits for the enqueues under way, then closes the queue and the pool. */
  async close(): Promise<void> {
    await this.publisher.onApplicationShutdown();
    await this.queue.close();
    await this.ds.destroy();
  }
}
