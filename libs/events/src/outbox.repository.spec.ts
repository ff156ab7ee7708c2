import type { DataSource } from 'typeorm';
import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import { newDomainEvents } from './outbox';
import { outboxInsertWhen, outboxRows } from './outbox-insert';
import { OutboxRepository } from './outbox.repository';

describe('OutboxRepository (PostgreSQL)', () => {
  let testDb: TestDatabase;
  let db: DataSource;
  let sut: OutboxRepository;

  const personUpdated = (personId: string) =>
    newDomainEvents([
      { type: 'PERSON_UPDATED', tenantCode: 'ACME', data: { personId, changedFields: ['lastName'] } },
    ])[0];
  const committed = async (personId: string) => {
    const event = personUpdated(personId);
    await db.transaction((manager) => sut.insertEvents(manager, [event]));
    return event;
  };
  const row = async (id: string) =>
    (
      await db.query(`SELECT published_at, publish_attempts, processed_at FROM events.outbox WHERE id = $1`, [
        id,
      ])
    )[0];

  beforeAll(async () => {
    testDb = await openTestDatabase();
    db = testDb.dataSource;
    sut = new OutboxRepository(db);
  });
  afterAll(() => testDb.close());

  describe('insertEvents', () => {
    it('writes with the caller’s transaction, so a rollback leaves no row', async () => {
      const event = personUpdated('rolled-back');
      await expect(
        db.transaction(async (manager) => {
          await sut.insertEvents(manager, [event]);
          throw new Error('change failed');
        }),
      ).rejects.toThrow('change failed');
      expect(await sut.findEvent(event.id)).toBeUndefined();
    });
  });

  describe('eraseSubjectData', () => {
    const withProfile = (personId: string, tenantCode = 'ACME') =>
      newDomainEvents([
        {
          type: 'PERSON_UPDATED',
          tenantCode,
          data: {
            personId,
            changedFields: ['firstName'],
            person: { personId, firstName: 'Marker-Ada', email: 'marker@example.com' },
            credentials: { status: 'ACTIVE', invalidatedAt: null },
          },
        },
      ])[0];
    const dataOf = async (id: string) => (await sut.findEvent(id))!.data;

    it("removes the personal fields from every event of the subject, in the caller's transaction, and answers their ids", async () => {
      const [first, second] = [withProfile('erased-1'), withProfile('erased-1')];
      const [neighbour, otherTenant] = [withProfile('kept-1'), withProfile('erased-1', 'OTHER')];
      await db.transaction((m) => sut.insertEvents(m, [first, second, neighbour, otherTenant]));

      const ids = await db.transaction((m) =>
        sut.eraseSubjectData(m, 'ACME', { type: 'person', id: 'erased-1' }, { PERSON_UPDATED: ['person'] }),
      );

      expect(ids.sort()).toEqual([first.id, second.id].sort());
      expect(await dataOf(first.id)).toEqual({
        personId: 'erased-1',
        changedFields: ['firstName'],
        credentials: { status: 'ACTIVE', invalidatedAt: null },
        erased: true,
      });
      expect(JSON.stringify(await dataOf(second.id))).not.toContain('Marker');
      expect(await dataOf(neighbour.id)).toEqual(neighbour.data);
      expect(await dataOf(otherTenant.id)).toEqual(otherTenant.data);
    });

    it('leaves the data of types without personal fields as it is, and rolls back with the caller', async () => {
      const event = withProfile('erased-2');
      await db.transaction((m) => sut.insertEvents(m, [event]));
      const subject = { type: 'person', id: 'erased-2' } as const;

      expect(await db.transaction((m) => sut.eraseSubjectData(m, 'ACME', subject, {}))).toEqual([event.id]);
      await expect(
        db.transaction(async (m) => {
          await sut.eraseSubjectData(m, 'ACME', subject, { PERSON_UPDATED: ['person'] });
          throw new Error('erasure failed');
        }),
      ).rejects.toThrow('erasure failed');
      expect(await dataOf(event.id)).toEqual(event.data);
    });
  });

  describe('oldestUnprocessedAgeSeconds', () => {
    const publishedAgo = (id: string, seconds: number, processed = false) =>
      db.query(
        `UPDATE events.outbox SET published_at = now() - make_interval(secs => $2),
                processed_at = CASE WHEN $3 THEN now() END WHERE id = $1`,
        [id, seconds, processed],
      );
    beforeEach(() => db.query(`UPDATE events.outbox SET processed_at = now() WHERE processed_at IS NULL`));

    it('is 0 when every published event is processed, and ignores unpublished ones', async () => {
      const unpublished = await committed('backlog-unpublished');
      await db.query(`UPDATE events.outbox SET published_at = NULL WHERE id = $1`, [unpublished.id]);
      expect(await sut.oldestUnprocessedAgeSeconds()).toBe(0);
    });

    it('is the age of the oldest published event not processed yet', async () => {
      const [old, young, done] = await Promise.all(['b-old', 'b-young', 'b-done'].map(committed));
      await publishedAgo(old.id, 300);
      await publishedAgo(young.id, 10);
      await publishedAgo(done.id, 900, true);
      expect(await sut.oldestUnprocessedAgeSeconds()).toBeCloseTo(300, -1);
    });
  });

  describe('outboxInsertWhen', () => {
    const statement = (guardRows: number, events: ReturnType<typeof personUpdated>[]) =>
      db.query(`WITH g AS (SELECT generate_series(1, $1)), o AS (${outboxInsertWhen('g', 2)}) SELECT 1`, [
        guardRows,
        ...outboxRows(events, 'trace-1'),
      ]);

    it('inserts the events, marked published, when the guard returned a row', async () => {
      const event = personUpdated('guarded');
      await statement(1, [event]);
      expect(await sut.findEvent(event.id)).toEqual(event);
      const [stored] = await db.query(
        `SELECT trace_context, subject_type, subject_id, publish_attempts FROM events.outbox WHERE id = $1`,
        [event.id],
      );
      expect(stored).toEqual({
        trace_context: 'trace-1',
        subject_type: 'person',
        subject_id: 'guarded',
        publish_attempts: 1,
      });
    });

    it('inserts nothing when the guard returned none', async () => {
      const event = personUpdated('not-guarded');
      await statement(0, [event]);
      expect(await sut.findEvent(event.id)).toBeUndefined();
    });
  });

  describe('publishUnpublished', () => {
    it('skips rows another claim holds, and marks what it published', async () => {
      const [held, free] = [await committed('held'), await committed('free')];
      let release!: () => void;
      let claimed!: () => void;
      const isClaimed = new Promise<void>((r) => (claimed = r));
      const holding = sut.publishUnpublished([held.id], () => {
        claimed();
        return new Promise<void>((r) => (release = r));
      });
      await isClaimed;
      const published: string[][] = [];
      expect(
        await sut.publishUnpublished(
          [held.id, free.id],
          async (events) => void published.push(events.map((e) => e.id)),
        ),
      ).toBe(1);
      expect(published).toEqual([[free.id]]);
      release();
      expect(await holding).toBe(1);
      expect(await row(held.id)).toMatchObject({ published_at: expect.any(Date), publish_attempts: 1 });
      expect(await sut.publishUnpublished([held.id], async () => undefined)).toBe(0);
    });

    it('leaves the rows unpublished when publishing fails', async () => {
      const event = await committed('redis-down');
      await expect(
        sut.publishUnpublished([event.id], async () => {
          throw new Error('redis down');
        }),
      ).rejects.toThrow('redis down');
      expect(await row(event.id)).toMatchObject({ published_at: null, publish_attempts: 0 });
    });
  });

  describe('pagePublishedUnprocessed', () => {
    it('finds events published before the grace period that nobody processed', async () => {
      const [old, recent, processed] = [
        await committed('old'),
        await committed('recent'),
        await committed('done'),
      ];
      await db.query(
        `UPDATE events.outbox SET published_at = now() - interval '5 minutes' WHERE id = ANY($1)`,
        [[old.id, processed.id]],
      );
      await db.query(`UPDATE events.outbox SET published_at = now() WHERE id = $1`, [recent.id]);
      await sut.markProcessed(processed.id);
      const found = (await sut.pagePublishedUnprocessed(30, 1000)).map((e) => e.id);
      expect(found).toContain(old.id);
      expect(found).not.toContain(recent.id);
      expect(found).not.toContain(processed.id);
    });

    it('pages by publication time and id, so the rows behind a full page are found too', async () => {
      const events = [await committed('p-1'), await committed('p-2'), await committed('p-3')];
      await db.query(
        `UPDATE events.outbox SET published_at = '2020-01-01T00:00:00Z', processed_at = NULL WHERE id = ANY($1)`,
        [events.map((e) => e.id)],
      );
      const all: string[] = [];
      let page = await sut.pagePublishedUnprocessed(30, 2);
      // Bounded, so a keyset that fails to advance fails the test instead of hanging it.
      for (let pages = 0; page.length && pages < 100; pages++) {
        all.push(...page.map((e) => e.id));
        page = await sut.pagePublishedUnprocessed(30, 2, page[page.length - 1]);
      }
      const ours = all.filter((id) => events.some((e) => e.id === id));
      expect(ours).toEqual(events.map((e) => e.id).sort());
      expect(new Set(all).size).toBe(all.length);
      expect(page).toEqual([]);
    });
  });

  describe('findEvent', () => {
    it('answers the event as subscribers receive it', async () => {
      const event = await committed('found');
      expect(await sut.findEvent(event.id)).toEqual(event);
    });
  });

  describe('markProcessed', () => {
    it('marks an event once', async () => {
      const event = await committed('processed');
      expect(await sut.markProcessed(event.id)).toBe(true);
      expect(await sut.markProcessed(event.id)).toBe(false);
      expect((await row(event.id)).processed_at).toEqual(expect.any(Date));
    });
  });
});
