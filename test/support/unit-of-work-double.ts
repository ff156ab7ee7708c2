import type { EntityManager } from 'typeorm';
import type { ChangeAsRead, EventType, OutboxRows, Transaction, UnitOfWork } from '@fincore/events';
import { newDouble } from './doubles';

export type TransactionDouble = Transaction & { emit: jest.Mock; emitAll: jest.Mock };

/**
 * A transaction for service unit specs: `manager` is a marker (or the given manager) to compare
 * with what repositories receive, and `emit`/`emitAll` record the events instead of writing them.
 */
export function aTransaction(
  manager: EntityManager = { name: 'transaction manager' } as unknown as EntityManager,
): TransactionDouble {
  return { manager, emit: jest.fn(), emitAll: jest.fn() } as unknown as TransactionDouble;
}

/** What a one-statement change's `write` receives from a UnitOfWork double for its events' rows. */
export const OUTBOX_ROWS: OutboxRows = ['outbox rows'];

/**
 * Makes a UnitOfWork double run its work at once in `tx`, and a change as read as the unit of work
 * does: its one statement (given OUTBOX_ROWS) when planned and applied, else its locked work in run().
 */
export function runsIn(uow: jest.Mocked<UnitOfWork>, tx: Transaction): void {
  uow.run.mockImplementation((work: (t: Transaction) => Promise<unknown>) => work(tx) as never);
  uow.changeAsReadOrLocked.mockImplementation((async (change: ChangeAsRead<unknown, EventType, unknown>) => {
    const subject = await change.read();
    const planned = subject ? change.plan(subject) : undefined;
    const applied = planned ? await planned.write(OUTBOX_ROWS) : null;
    return applied ?? uow.run(change.locked);
  }) as never);
}

/** A UnitOfWork double that runs the work at once in a transaction double. */
export function newUnitOfWork(manager?: EntityManager): {
  uow: jest.Mocked<UnitOfWork>;
  tx: TransactionDouble;
} {
  const tx = aTransaction(manager);
  const uow = newDouble<UnitOfWork>();
  runsIn(uow, tx);
  return { uow, tx };
}
