import type { DataSource } from 'typeorm';

/** Columns that background work (outbox relay, token bookkeeping) writes while the suite runs. */
const BACKGROUND_COLUMNS = ['published_at', 'publish_attempts', 'processed_at', 'last_used_at'];

/**
 * Tables that remember answers rather than hold state: a refused request sent with an
 * Idempotency-Key is stored so that its retry gets the same refusal, which changes nothing else.
 */
const ANSWER_TABLES = ['platform.idempotency_keys'];

/**
 * A cheap fingerprint of everything in the stack's database: per table the row count and the newest
 * row version (`max(xmin)`: any committed insert or update makes a newer one, a delete lowers the
 * count). Tables that background work writes get a hash of their other columns instead (jsonb
 * payloads left out: written once with their row). Equal before and after a request means the
 * request changed nothing, events.outbox included.
 */
export class DatabaseFingerprint {
  private sql?: string;

  constructor(private readonly db: DataSource) {}

  async take(): Promise<Map<string, string>> {
    this.sql ??= await this.query();
    const rows: Array<{ t: string; f: string }> = await this.db.query(this.sql);
    return new Map(rows.map((r) => [r.t, r.f]));
  }

  private async query(): Promise<string> {
    const columns: Array<{ name: string; column: string; type: string }> = await this.db.query(
      `SELECT format('%I.%I', c.table_schema, c.table_name) AS name, quote_ident(c.column_name) AS column,
              c.data_type AS type
         FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE t.table_type = 'BASE TABLE' AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
        ORDER BY 1, c.ordinal_position`,
    );
    const tables = new Map<string, typeof columns>();
    for (const c of columns) {
      if (!ANSWER_TABLES.includes(c.name)) tables.set(c.name, [...(tables.get(c.name) ?? []), c]);
    }
    return [...tables]
      .map(([name, cols]) => {
        const background = cols.some((c) => BACKGROUND_COLUMNS.includes(c.column));
        const kept = cols.filter((c) => !BACKGROUND_COLUMNS.includes(c.column) && c.type !== 'jsonb');
        const version = background
          ? `coalesce(sum(hashtext(row(${kept.map((c) => c.column).join(', ')})::text)), 0)`
          : `coalesce(max(xmin::text::bigint), 0)`;
        return `SELECT '${name}' AS t, count(*) || ':' || ${version} AS f FROM ${name}`;
      })
      .join(' UNION ALL ');
  }

  /** The tables whose fingerprints differ. */
  static changed(before: Map<string, string>, after: Map<string, string>): string[] {
    return [...after.keys()].filter((t) => before.get(t) !== after.get(t));
  }
}
