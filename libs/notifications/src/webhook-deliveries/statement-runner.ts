import type { DataSource, EntityManager } from 'typeorm';
import { queryPrepared } from '@fincore/database';

/**
 * The statements of every webhook's way (fan-out, attempt read, success) are long: run outside a
 * transaction, each is a named prepared statement, so a pooled connection parses and plans it
 * once rather than on every run. Inside the caller's transaction, an ordinary query.
 */
export function runStatement<T>(
  db: DataSource,
  manager: EntityManager,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  if (manager !== db.manager) return manager.query(sql, params);
  return queryPrepared<T>(db, sql, params);
}
