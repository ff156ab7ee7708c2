import type { DataSource } from 'typeorm';
import type { AppWorld } from './app-world';
import { countRows } from './db';
import { expectProblem } from './problems';

/** Text that PostgreSQL cannot store (NUL) or UTF-8 cannot encode (an unpaired surrogate). */
export const NUL_TEXT = 'a\u0000b';
export const LONE_SURROGATE_TEXT = 'a\ud800b';

/** A request the API must refuse with 400 before it changes anything. */
export interface Refusal {
  what: string;
  method: string;
  /** Functions, so that they may use what `beforeAll` made. */
  path: () => string;
  body?: () => unknown;
  /** validation_failed unless given. */
  code?: string;
  /** The field `errors[]` must name. */
  field?: string;
}

/** The number of rows of each table, and of the outbox. */
export async function rowCounts(db: DataSource, tables: readonly string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of [...tables, 'events.outbox']) counts[table] = await countRows(db, table);
  return counts;
}

/**
 * One test per refusal: the answer is a 400 problem with its stable code and the field named,
 * and neither the tables given nor the outbox gained or lost a row.
 */
export function itRefusesEach(world: () => AppWorld, tables: readonly string[], refusals: Refusal[]): void {
  it.each(refusals.map((r) => [r.what, r] as const))(
    'refuses %s with 400 and writes nothing',
    async (_, r) => {
      const { sut, db, token } = world();
      const before = await rowCounts(db, tables);
      const answer = await sut.api.request(r.method, r.path(), { token, body: r.body?.() });
      expectProblem(answer, 400, r.code ?? 'validation_failed');
      if (r.field) {
        expect(answer.body.errors).toEqual(
          expect.arrayContaining([expect.objectContaining({ field: r.field })]),
        );
      }
      expect(await rowCounts(db, tables)).toEqual(before);
    },
  );
}
