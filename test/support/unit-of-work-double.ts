import type { EntityManager } from 'typeorm';
import type { Transaction, UnitOfWork } from '@fincore/events';
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

/** Makes a UnitOfWork double run its work at once in `tx`. */
export function runsIn(uow: jest.Mocked<UnitOfWork>, tx: Transaction): void {
  uow.run.mockImplementation((work: (t: Transaction) => Promise<unknown>) => work(tx) as never);
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
