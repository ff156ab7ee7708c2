import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Only a row inserted unpublished wakes the relays. The APIs insert their events already marked
 * published and enqueue them themselves, so a NOTIFY per event woke every relay for nothing, and
 * PostgreSQL serialises the commits of all transactions that notify.
 */
export class EventsOutboxNotifyUnpublished1763700000945 implements MigrationInterface {
  name = 'EventsOutboxNotifyUnpublished1763700000945';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER outbox_notify ON events.outbox`);
    await q.query(`
      CREATE TRIGGER outbox_notify AFTER INSERT ON events.outbox
      FOR EACH ROW WHEN (NEW.published_at IS NULL) EXECUTE FUNCTION events.notify_outbox()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER outbox_notify ON events.outbox`);
    await q.query(`
      CREATE TRIGGER outbox_notify AFTER INSERT ON events.outbox
      FOR EACH ROW EXECUTE FUNCTION events.notify_outbox()`);
  }
}
