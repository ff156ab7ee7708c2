import type { EntityManager } from 'typeorm';
import type { UnitOfWork } from '@fincore/events';
import { newDouble } from './doubles';

/**
 * A UnitOfWork double that runs the work at once with the given manager (a double too, by
 * default), so a service spec sees what its repositories were asked inside the transaction.
 */
export function newUnitOfWorkDouble(
  manager: EntityManager = newDouble<EntityManager>(),
): jest.Mocked<UnitOfWork> {
  const unitOfWork = newDouble<UnitOfWork>();
  unitOfWork.run.mockImplementation((work) => work({ manager, emit: jest.fn(), emitAll: jest.fn() }));
  return unitOfWork;
}
