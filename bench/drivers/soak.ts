import { performance } from 'node:perf_hooks';
import { sleep } from '../support/processes';
import { assertLoopback } from '../support/settings';
import type { BenchWorld } from '../support/world';

/** The tables retention keeps bounded. */
export const RETAINED_TABLES = [
  'events.outbox',
  'notifications.webhook_deliveries',
  'notifications.webhook_delivery_attempts',
] as const;
export type RetainedTable = (typeof RETAINED_TABLES)[number];

export interface TableSample {
  /** Seconds since the steady traffic began. */
  at: number;
  rows: Record<RetainedTable, number>;
  /** pg_total_relation_size: heap, indexes and TOAST. */
  bytes: Record<RetainedTable, number>;
  /** Dead row versions not yet vacuumed: space the table cannot reuse yet. */
  dead: Record<RetainedTable, number>;
  /** (Auto)vacuum runs on the table so far. */
  vacuums: Record<RetainedTable, number>;
}

/** Row count and total size of every retained table, now. */
export async function sampleTables(world: BenchWorld, at: number): Promise<TableSample> {
  const sample: TableSample = { at, rows: {}, bytes: {}, dead: {}, vacuums: {} } as TableSample;
  for (const table of RETAINED_TABLES) {
    const [r] = await world.query<{ n: string; size: string; dead: string; vacuums: string }>(
      `SELECT count(*) AS n, pg_total_relation_size($1::regclass) AS size,
              (SELECT n_dead_tup FROM pg_stat_user_tables WHERE relid = $1::regclass) AS dead,
              (SELECT vacuum_count + autovacuum_count FROM pg_stat_user_tables WHERE relid = $1::regclass) AS vacuums
         FROM ${table}`,
      [table],
    );
    sample.rows[table] = Number(r.n);
    sample.bytes[table] = Number(r.size);
    sample.dead[table] = Number(r.dead);
    sample.vacuums[table] = Number(r.vacuums);
  }
  return sample;
}

/** Whether the server runs autovacuum (some test servers turn it off). */
export async function autovacuumRuns(world: BenchWorld): Promise<boolean> {
  const [{ autovacuum }] = await world.query<{ autovacuum: string }>(`SHOW autovacuum`);
  return autovacuum === 'on';
}

/** A plain VACUUM of each retained table, as autovacuum would run it: no lock that blocks writes. */
export async function vacuumRetainedTables(world: BenchWorld): Promise<void> {
  for (const table of RETAINED_TABLES) await world.query(`VACUUM (ANALYZE) ${table}`);
}

export interface SteadyRun {
  sent: number;
  ok: number;
  statusCodes: Record<string, number>;
  seconds: number;
}

/**
 * Open-loop traffic: `perSecond` person changes (lastName differs each time, so each emits one
 * PERSON_UPDATED) rotating over the persons, whatever the answer times, for `seconds`.
 */
export async function steadyTraffic(options: {
  url: string;
  token: string;
  ids: string[];
  perSecond: number;
  seconds: number;
}): Promise<SteadyRun> {
  assertLoopback(options.url, 'soak target');
  const statusCodes: Record<string, number> = {};
  let sent = 0;
  let ok = 0;
  const inFlight = new Set<Promise<void>>();
  const change = async (n: number) => {
    const personId = options.ids[n % options.ids.length];
    const r = await fetch(`${options.url}/api/v1/persons/${personId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-auth-token': options.token },
      body: JSON.stringify({ lastName: `Soak ${n}` }),
    }).catch(() => undefined);
    if (r) await r.arrayBuffer();
    const status = r ? String(r.status) : 'error';
    statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    if (r?.status === 200) ok++;
  };
  const started = performance.now();
  const durationMs = options.seconds * 1000;
  while (performance.now() - started < durationMs) {
    const due = Math.floor(((performance.now() - started) / 1000) * options.perSecond);
    // A cap on requests in flight: a stalled system is not buried under an unbounded backlog.
    while (sent < due && inFlight.size < 100) {
      const p = change(sent++).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await sleep(10);
  }
  await Promise.all(inFlight);
  return { sent, ok, statusCodes, seconds: (performance.now() - started) / 1000 };
}

export interface Flatness {
  table: RetainedTable;
  /** Samples taken after the first retention window, which the verdict is based on. */
  samples: number;
  rowsEarlyMax: number;
  rowsLateMax: number;
  bytesEarlyMax: number;
  bytesLateMax: number;
  /** Rows and bytes of the later half stay within `tolerance` of the earlier half's maximum. */
  flatRows: boolean;
  flatBytes: boolean;
  /** Mean total size per row after the first window: what one retained row costs. */
  bytesPerRow: number;
  /** Least-squares growth of the total size after the first window, per second. */
  bytesPerSecond: number;
  /** Vacuums of the table after the first window: until one runs, deleted rows' space is not reused. */
  vacuums: number;
  /** Most dead row versions seen after the first window. */
  deadMax: number;
}

/**
 * Whether each table stays bounded once retention applies: the samples after `settledAfter`
 * seconds are split in halves, and the later half may not exceed the earlier one's maximum by
 * more than `tolerance` (0.1 = 10 %). Undefined for a table with fewer than 4 such samples.
 */
export function judgeFlatness(
  samples: readonly TableSample[],
  settledAfter: number,
  tolerance = 0.1,
): Flatness[] | undefined {
  const settled = samples.filter((s) => s.at >= settledAfter);
  if (settled.length < 4) return undefined;
  const half = Math.floor(settled.length / 2);
  const [early, late] = [settled.slice(0, half), settled.slice(half)];
  const max = (list: readonly TableSample[], pick: (s: TableSample) => number) => Math.max(...list.map(pick));
  return RETAINED_TABLES.map((table) => {
    const rows = (s: TableSample) => s.rows[table];
    const bytes = (s: TableSample) => s.bytes[table];
    const withRows = settled.filter((s) => rows(s) > 0);
    return {
      table,
      samples: settled.length,
      rowsEarlyMax: max(early, rows),
      rowsLateMax: max(late, rows),
      bytesEarlyMax: max(early, bytes),
      bytesLateMax: max(late, bytes),
      flatRows: max(late, rows) <= max(early, rows) * (1 + tolerance),
      flatBytes: max(late, bytes) <= max(early, bytes) * (1 + tolerance),
      bytesPerRow: withRows.reduce((sum, s) => sum + bytes(s) / rows(s), 0) / Math.max(1, withRows.length),
      bytesPerSecond: slope(settled.map((s) => [s.at, bytes(s)])),
      vacuums: settled[settled.length - 1].vacuums[table] - settled[0].vacuums[table],
      deadMax: max(settled, (s) => s.dead[table]),
    };
  });
}

function slope(points: ReadonlyArray<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

/** Rows inserted, updated and deleted per table since the statistics began. */
export type WriteCounters = Map<string, { ins: number; upd: number; del: number }>;

export async function writeCounters(world: BenchWorld): Promise<WriteCounters> {
  const rows = await world.query<{ t: string; ins: string; upd: string; del: string }>(
    `SELECT schemaname || '.' || relname AS t, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_del AS del
       FROM pg_stat_user_tables`,
  );
  return new Map(rows.map((r) => [r.t, { ins: Number(r.ins), upd: Number(r.upd), del: Number(r.del) }]));
}

/**
 * The counters once they stopped moving: backends report their statistics with a delay (up to
 * 10 s when idle), so a reading right after the work would miss some of it.
 */
export async function settledWriteCounters(world: BenchWorld, timeoutMs = 40_000): Promise<WriteCounters> {
  const total = (c: WriteCounters) => [...c.values()].reduce((s, v) => s + v.ins + v.upd, 0);
  const deadline = Date.now() + timeoutMs;
  let last = await writeCounters(world);
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    await sleep(1000);
    const now = await writeCounters(world);
    if (total(now) !== total(last)) quietSince = Date.now();
    // Quiet for longer than the slowest report interval: nothing left to come in.
    else if (Date.now() - quietSince >= 11_000) return now;
    last = now;
  }
  return last;
}

/** Per table, rows inserted and updated between two readings, divided by `per`. */
export function writesPer(
  before: WriteCounters,
  after: WriteCounters,
  per: number,
): Array<{ table: string; inserted: number; updated: number; deleted: number }> {
  return [...after.entries()]
    .map(([table, a]) => {
      const b = before.get(table) ?? { ins: 0, upd: 0, del: 0 };
      return {
        table,
        inserted: (a.ins - b.ins) / per,
        updated: (a.upd - b.upd) / per,
        deleted: (a.del - b.del) / per,
      };
    })
    .filter((r) => r.inserted || r.updated || r.deleted)
    .sort((x, y) => x.table.localeCompare(y.table));
}
