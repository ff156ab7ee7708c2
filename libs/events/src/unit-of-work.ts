import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import { requestContext, serializeTraceContext } from '@fincore/platform';
import { EventData, EventType } from './catalog';
import type { DomainEvent } from './envelope';
import { newDomainEvents } from './outbox';
import { OutboxPublisher } from './outbox-publisher';
import { OutboxRows, outboxRows } from './outbox-insert';
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

/** A change worked out from its subject as read: its events, and the one statement that writes both. */
export interface OneStatementChange<T extends EventType, R> {
  type: T;
  tenantCode: string;
  data: readonly EventData<T>[];
  /**
   * Runs the one statement that writes the change and `outbox` (see outboxInsertWhen) only while
   * the subject is still as read. Null when it was not: then it wrote nothing.
   */
  write(outbox: OutboxRows): Promise<R | null>;
}

/** A change that goes in one statement when its subject is still as read, else under a lock. */
export interface ChangeAsRead<S, T extends EventType, R> {
  /** The subject as committed, unlocked; null leaves the change (and its answer) to `locked`. */
  read(): Promise<S | null>;
  /**
   * The change worked out from the subject as read; undefined leaves it to `locked` (a refusal or
   * a no-op, whose answer must come from the subject as locked).
   */
  plan(subject: S): OneStatementChange<T, R> | undefined;
  /** The change in a transaction that locks the subject first; emits its events through `tx`. */
  locked(tx: Transaction): Promise<R>;
}

/** The events of a change, checked against the catalog, correlated with the request. */
function newEvents<T extends EventType>(type: T, tenantCode: string, data: readonly EventData<T>[]) {
  const correlationId = requestContext.requestId() ?? null;
  return newDomainEvents(data.map((d) => ({ type, tenantCode, data: d, correlationId })));
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
        const events = newEvents(type, tenantCode, data);
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
   * The one write path of a change checked against state read beforehand: read the subject
   * unlocked, work the change out from it, and write the change and its events in ONE statement
   * that applies only while the subject is still as read (atomic without a transaction: no BEGIN,
   * no COMMIT, a round trip each), then publish the events after it, as run() does. When the plan
   * leaves it to the lock, or the subject changed meanwhile, the change runs in run() with the
   * subject locked.
   */
  async changeAsReadOrLocked<S, T extends EventType, R>(change: ChangeAsRead<S, T, R>): Promise<R> {
    const subject = await change.read();
    const planned = subject && change.plan(subject);
    if (planned) {
      const { tenantCode } = planned;
      const events = newEvents(planned.type, tenantCode, planned.data);
      const traceContext = serializeTraceContext();
      const result = await planned.write(outboxRows(events, traceContext));
      if (result !== null) {
        this.publisher.publishInBackground(events.map(({ id }) => ({ id, tenantCode, traceContext })));
        return result;
      }
    }
    return this.run(change.locked);
  }
}
