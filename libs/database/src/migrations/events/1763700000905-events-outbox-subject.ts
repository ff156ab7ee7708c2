import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each event names its subject (the person or card it is about) and gets a position when inserted.
 * The API inserts an event after locking its subject's row, so for one subject the position order
 * is the commit order; ordered webhook delivery fans events out in that order.
 */
export class EventsOutboxSubject1763700000905 implements MigrationInterface {
  name = 'EventsOutboxSubject1763700000905';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE events.outbox ADD COLUMN subject_type varchar(32), ADD COLUMN subject_id text`,
    );
    await q.query(`ALTER TABLE events.outbox ADD COLUMN position bigint GENERATED ALWAYS AS IDENTITY`);
    // The fan-out looks up a subject's events not yet fanned out; processed ones leave the index.
    await q.query(
      `CREATE INDEX outbox_unprocessed_subject ON events.outbox (tenant_code, subject_type, subject_id, position)
        WHERE processed_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX events.outbox_unprocessed_subject`);
    await q.query(
      `ALTER TABLE events.outbox DROP COLUMN position, DROP COLUMN subject_id, DROP COLUMN subject_type`,
    );
  }
}
