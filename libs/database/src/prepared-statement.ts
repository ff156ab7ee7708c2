import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** Statement texts named so far; a hot path has a handful, so the bound is never reached in use. */
const NAMES = new Map<string, string>();
const MAX_NAMES = 1000;

/** The statement's name on every connection: derived from its text, so one name never means two texts. */
export function statementName(sql: string): string {
  let name = NAMES.get(sql);
  if (!name) {
    name = `fincore_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    if (NAMES.size < MAX_NAMES) NAMES.set(sql, name);
  }
  return name;
}

/**
 * Runs a statement outside any transaction as a named prepared statement: each pooled connection
 * parses and plans it once instead of on every run. For long statements on a hot path; the text
 * must not vary with the values (they go in `params`), or every variant is prepared anew, and its
 * result columns must be named, never `*`: a plan prepared before a migration added a column
 * would then fail on that connection.
 */
export async function queryPrepared<T>(db: DataSource, sql: string, params: unknown[]): Promise<T[]> {
  const pool = (db.driver as PostgresDriver).master as Pool;
  const result = await pool.query({ name: statementName(sql), text: sql, values: params });
  return result.rows as T[];
}
