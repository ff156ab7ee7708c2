import { MigrationInterface, QueryRunner } from 'typeorm';

/** Retention deletes processed events by age; unprocessed ones are outside the index. */
export class EventsOutboxProcessed1763700000830 implements MigrationInterface {
  name = 'EventsOutboxProcessed1763700000830';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX outbox_processed ON events.outbox (processed_at) WHERE processed_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX events.outbox_processed`);
  }
}
