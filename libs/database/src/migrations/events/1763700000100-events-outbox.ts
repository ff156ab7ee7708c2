import { MigrationInterface, QueryRunner } from 'typeorm';

export class EventsOutbox1763700000100 implements MigrationInterface {
  name = 'EventsOutbox1763700000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS events`);
    await q.query(`
      CREATE TABLE events.outbox (
        id uuid PRIMARY KEY,
        type varchar(100) NOT NULL,
        tenant_code varchar(64) NOT NULL,
        occurred_at timestamptz NOT NULL,
        correlation_id varchar(128),
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        published_at timestamptz,
        publish_attempts integer NOT NULL DEFAULT 0,
        -- set by the consumer (notifier) once the event is handled; the reconciler re-enqueues the rest
        processed_at timestamptz
      )`);
    await q.query(`CREATE INDEX outbox_unpublished ON events.outbox (created_at) WHERE published_at IS NULL`);
    await q.query(
      `CREATE INDEX outbox_unprocessed ON events.outbox (published_at) WHERE published_at IS NOT NULL AND processed_at IS NULL`,
    );
    await q.query(`CREATE INDEX outbox_tenant_type ON events.outbox (tenant_code, type, occurred_at)`);
    // NOTIFY is transactional: relays hear of a row only once it is committed.
    await q.query(`
      CREATE FUNCTION events.notify_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('fincore_outbox', NEW.id::text);
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER outbox_notify AFTER INSERT ON events.outbox
      FOR EACH ROW EXECUTE FUNCTION events.notify_outbox()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE events.outbox`);
    await q.query(`DROP FUNCTION events.notify_outbox()`);
  }
}
