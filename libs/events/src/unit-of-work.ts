import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import { requestContext, serializeTraceContext } from '@fincore/platform';
import { EventData, EventType } from './catalog';
import type { DomainEvent } from './envelope';
import { newDomainEvents } from './outbox';
import { OutboxPublisher } from './outbox-publisher';
import { EventToEnqueue, OutboxRepository } from './outbox.repository';

export interface Transaction {
  manager: EntityManager;
  /** Records a domain event in this transaction's outbox; published after commit. */
  emit<T extends EventType>(type: T, tenantCode: string, data: EventData<T>): Promise<DomainEvent<T>>;
  /** Records many events of one type in one statement; published after commit like the rest. */
  emitAll<T extends EventType>(
    type: T,
    tenantCode: string,
    data: readonly EventData<T>[],
  ): Promise<DomainEvent<T>[]>;
}

/**
 * A state change and its events in one database transaction, then publication after commit.
 * Nothing is published if the transaction rolls back.
 */
@Injectable()
export class UnitOfWork {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(OutboxRepository) private readonly outbox: OutboxRepository,
    @Inject(OutboxPublisher) private readonly publisher: OutboxPublisher,
  ) {}

  async run<R>(
    work: (tx: Transaction) => Promise<R>,
    options: { isolation?: IsolationLevel } = {},
  ): Promise<R> {
    const emitted: EventToEnqueue[] = [];
    const body = async (manager: EntityManager) => {
      const emitAll: Transaction['emitAll'] = async (type, tenantCode, data) => {
        const correlationId = requestContext.requestId() ?? null;
        const events = newDomainEvents(data.map((d) => ({ type, tenantCode, data: d, correlationId })));
        // Marked published at once: this process enqueues them after commit (no statement after it).
        // The request's trace goes on from the row: relay, notifier and webhook continue it.
        const traceContext = serializeTraceContext();
        await this.outbox.insertEvents(manager, events, { traceContext, publishing: true });
        // A loop, not push(...ids): spreading a very large array overflows the call stack.
        for (const { id } of events) emitted.push({ id, tenantCode, traceContext });
        return events;
      };
      return work({
        manager,
        emit: async (type, tenantCode, data) => (await emitAll(type, tenantCode, [data]))[0],
        emitAll,
      });
    };
    const result = options.isolation
      ? await this.db.transaction(options.isolation, body)
      : await this.db.transaction(body);
    this.publisher.publishInBackground(emitted);
    return result;
  }
}
