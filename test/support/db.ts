import type { DataSource } from 'typeorm';

/** `column = $n AND …` for a `{ column: value }` map, with its parameters. */
function whereOf(where: Record<string, unknown>): { sql: string; params: unknown[] } {
  const columns = Object.keys(where);
  const sql = columns.map((column, i) => `${column} = $${i + 1}`).join(' AND ');
  return { sql: sql ? `WHERE ${sql}` : '', params: Object.values(where) };
}

/** Rows of a table (`schema.table`) whose columns equal the given values. */
export async function selectRows<T = Record<string, any>>(
  db: DataSource,
  table: string,
  where: Record<string, unknown> = {},
  options: { columns?: string; orderBy?: string } = {},
): Promise<T[]> {
  const { sql, params } = whereOf(where);
  const order = options.orderBy ? `ORDER BY ${options.orderBy}` : '';
  return db.query(`SELECT ${options.columns ?? '*'} FROM ${table} ${sql} ${order}`, params);
}

/** How many rows of a table (`schema.table`) have the given column values. */
export async function countRows(
  db: DataSource,
  table: string,
  where: Record<string, unknown> = {},
): Promise<number> {
  const [{ n }] = await selectRows<{ n: number }>(db, table, where, { columns: 'count(*)::int AS n' });
  return n;
}
