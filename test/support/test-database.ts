import type { DataSource } from 'typeorm';
import type { TenantEntity } from '@fincore/platform';
import { TestStack } from './stack';

/** A fresh database for a repository spec, cloned from the run's migrated template. */
export interface TestDatabase {
  dataSource: DataSource;
  /** A tenant row: most tables reference platform.tenants. */
  createTenant(): Promise<TenantEntity>;
  /** Closes the connection and drops the database. */
  close(): Promise<void>;
}

/**
 * Opens a database of its own for the calling spec (use in beforeAll, close in afterAll). The
 * template is made once per `npm test` by the global setup; cloning and dropping are TestStack's.
 */
export async function openTestDatabase(entities: Function[] = []): Promise<TestDatabase> {
  const stack = await TestStack.create();
  try {
    const dataSource = await stack.db(entities);
    return {
      dataSource,
      createTenant: async () => (await stack.createTenant()).tenant,
      close: () => stack.close(),
    };
  } catch (error) {
    await stack.close();
    throw error;
  }
}
