import type { EntityManager } from 'typeorm';
import type { Transaction, UnitOfWork } from '@fincore/events';
import { newDouble } from './doubles';

/**
 * A UnitOfWork double for service unit specs: `run` calls the work at once with `tx`, whose
 * `manager` is a marker to compare with what repositories receive and whose `emit`/`emitAll`
 * record the events instead of writing them.
 */
export function newUnitOfWork(): { uow: jest.Mocked<UnitOfWork>; tx: jest.Mocked<Transaction> } {
  const tx = {
    manager: { name: 'transaction manager' } as unknown as EntityManager,
    emit: jest.fn(),
    emitAll: jest.fn(),
  } as unknown as jest.Mocked<Transaction>;
  const uow = newDouble<UnitOfWork>();
  uow.run.mockImplementation((work: (t: Transaction) => Promise<unknown>) => work(tx) as never);
  return { uow, tx };
}
