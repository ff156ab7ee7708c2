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

/** The outbox insert a one-statement change joins to its statement (see UnitOfWork.runInOneStatement). */
export interface OutboxPart {
  /**
   * A data-modifying CTE body that records the change's events, only when the statement's CTE
   * `guard` returned a row; its values go onto the statement's `params`.
   */
  sql(params: unknown[], guard: string): string;
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

  /**
   * A state change and its events in ONE statement, atomic without a transaction (no BEGIN, no
   * COMMIT: a round trip each), then publication after it, as run() does. For a change checked
   * against state read beforehand: `write` runs one statement that applies the change only while
   * that state still holds, with `outbox` joined as a CTE guarded by the change, and answers null
   * when it did not apply. Then nothing was written nor is published, and the caller falls back
   * to run().
   */
  async runInOneStatement<T extends EventType, R>(
    type: T,
    tenantCode: string,
    data: readonly EventData<T>[],
    write: (outbox: OutboxPart) => Promise<R | null>,
  ): Promise<R | null> {
    const correlationId = requestContext.requestId() ?? null;
    const events = newDomainEvents(data.map((d) => ({ type, tenantCode, data: d, correlationId })));
    const traceContext = serializeTraceContext();
    const result = await write({
      sql: (params, guard) =>
        this.outbox.insertEventsPart(events, { traceContext, publishing: true }, params, guard),
    });
    if (result !== null) {
      this.publisher.publishInBackground(events.map(({ id }) => ({ id, tenantCode, traceContext })));
    }
    return result;
  }
}
