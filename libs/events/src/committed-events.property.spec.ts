import fc from 'fast-check';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { openTestDatabase, TestDatabase } from '../../../test/support/test-database';
import type { CommitOrderPosition } from './committed-events';
import { newDomainEvents } from './outbox';
import { OutboxRepository } from './outbox.repository';

/** One writer's transaction: which subject, how many events, the pauses around them, and its fate. */
interface Write {
  subject: number;
  events: number;
  beforeLockMs: number;
  beforeCommitMs: number;
  rollback: boolean;
}

const write = fc.record({
  subject: fc.integer({ min: 0, max: 3 }),
  events: fc.integer({ min: 1, max: 3 }),
  beforeLockMs: fc.integer({ min: 0, max: 15 }),
  beforeCommitMs: fc.integer({ min: 0, max: 25 }),
  rollback: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
});

describe('OutboxRepository.pageCommitted under concurrent commits (PostgreSQL)', () => {
  let testDb: TestDatabase;
  let db: DataSource;
  let sut: OutboxRepository;
  let run = 0;

  beforeAll(async () => {
    testDb = await openTestDatabase();
    db = testDb.dataSource;
    sut = new OutboxRepository(db);
    await db.query(`CREATE TABLE public.stream_subjects (tenant text, id int, version int NOT NULL DEFAULT 0,
                      PRIMARY KEY (tenant, id))`);
  });
  afterAll(() => testDb.close());

  /**
   * Writes like the APIs: lock the subject's row (the version counts its commits), insert the
   * events, commit or roll back. Answers the committed events' ids, labelled `version:index`.
   */
  async function writeAll(tenantCode: string, writes: Write[], committed: Map<string, string>) {
    await Promise.all(
      writes.map((w) =>
        db
          .transaction(async (manager) => {
            await sleep(w.beforeLockMs);
            const [[{ version }]] = await manager.query(
              `UPDATE public.stream_subjects SET version = version + 1 WHERE tenant = $1 AND id = $2 RETURNING version`,
              [tenantCode, w.subject],
            );
            const events = newDomainEvents(
              Array.from({ length: w.events }, (_, i) => ({
                type: 'PERSON_UPDATED' as const,
                tenantCode,
                data: { personId: `s${w.subject}`, changedFields: [`${version}:${i}`] },
              })),
            );
            await sut.insertEvents(manager, events);
            await sleep(w.beforeCommitMs);
            if (w.rollback) throw new Error('rolled back');
            return events;
          })
          .then(
            (events) => events.forEach((e) => committed.set(e.id, e.data.changedFields[0])),
            () => undefined,
          ),
      ),
    );
  }

  /**
   * Whether every transaction that wrote the tenant's rows is behind the horizon: transactions of
   * the whole server (other databases too) hold it back, so an empty page alone proves nothing.
   */
  async function horizonPassed(tenantCode: string): Promise<boolean> {
    const [{ passed }] = await db.query(
      `SELECT coalesce(max(commit_order) < pg_snapshot_xmin(pg_current_snapshot()), true) AS passed
         FROM events.outbox WHERE tenant_code = $1`,
      [tenantCode],
    );
    return passed;
  }

  /** Pages with the given sizes (cycling) until the writers are done and a page comes back empty. */
  async function readAll(tenantCode: string, sizes: number[], writersDone: () => boolean) {
    const seen: Array<{ id: string; label: string; subject: string }> = [];
    let after: CommitOrderPosition | undefined;
    for (let page = 0; ; page++) {
      // Checked before the read: an empty page after the horizon passed proves the end.
      const done = writersDone() && (await horizonPassed(tenantCode));
      const limit = sizes[page % sizes.length];
      const events = await sut.pageCommitted({
        tenantCode,
        after,
        types: ['PERSON_UPDATED'],
        since: new Date(0),
        limit,
      });
      for (const { event } of events) {
        const data = event.data as { personId: string; changedFields: string[] };
        seen.push({ id: event.id, label: data.changedFields[0], subject: data.personId });
      }
      if (events.length) after = events[events.length - 1].at;
      else if (done) return seen;
      else await sleep(2);
    }
  }

  it('reads every committed event exactly once, each subject’s in commit order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(write, { minLength: 1, maxLength: 24 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 }),
        async (writes, sizes) => {
          const tenantCode = `STREAM${++run}`;
          await db.query(`INSERT INTO public.stream_subjects (tenant, id) SELECT $1, generate_series(0, 3)`, [
            tenantCode,
          ]);
          const committed = new Map<string, string>();
          let writersDone = false;
          const writing = writeAll(tenantCode, writes, committed).finally(() => (writersDone = true));
          const [seen] = await Promise.all([readAll(tenantCode, sizes, () => writersDone), writing]);

          expect(seen.map((s) => s.id).sort()).toEqual([...committed.keys()].sort());
          for (const subject of new Set(seen.map((s) => s.subject))) {
            const labels = seen.filter((s) => s.subject === subject).map((s) => s.label);
            const byCommit = [...labels].sort((a, b) => {
              const [va, ia] = a.split(':').map(Number);
              const [vb, ib] = b.split(':').map(Number);
              return va - vb || ia - ib;
            });
            expect(labels).toEqual(byCommit);
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
