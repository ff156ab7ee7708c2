import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The index of events not fanned out yet holds only events with a subject, the only ones it is
 * looked up for. Any lookup of one event by id that also says "not processed" could use the old
 * index, and statistics taken while nothing waited (the usual state) made it look empty: the
 * planner scanned the whole backlog for one row, so every fan-out cost more as a backlog grew.
 * A lookup by subject implies the subject is set; a lookup by id now takes the primary key.
 */
export class EventsOutboxSubjectIndexWithSubject1763700000940 implements MigrationInterface {
  name = 'EventsOutboxSubjectIndexWithSubject1763700000940';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX events.outbox_unprocessed_subject`);
    await q.query(
      `CREATE INDEX outbox_unprocessed_subject ON events.outbox (tenant_code, subject_type, subject_id, position)
        WHERE processed_at IS NULL AND subject_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX events.outbox_unprocessed_subject`);
    await q.query(
      `CREATE INDEX outbox_unprocessed_subject ON events.outbox (tenant_code, subject_type, subject_id, position)
        WHERE processed_at IS NULL`,
    );
  }
}
