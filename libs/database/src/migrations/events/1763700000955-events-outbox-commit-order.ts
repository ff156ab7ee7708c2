import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each row gets a commit-order key: the id of the transaction that wrote it, raised to the key of
 * its subject's latest event. Transaction ids alone do not follow commit order: a transaction that
 * got its id first may take the subject's lock second. A writer inserts after locking the subject,
 * so the previous event of the subject is committed and visible to the trigger.
 *
 * A reader takes only rows whose key is below the oldest transaction still in progress: every
 * such row is committed, and any row written later gets a key at least its own transaction's id,
 * so no row can join that part of the order afterwards. Paging through it in (key, position)
 * order skips nothing that commits late. The column default and the trigger leave the inserts as
 * they are.
 */
export class EventsOutboxCommitOrder1763700000955 implements MigrationInterface {
  name = 'EventsOutboxCommitOrder1763700000955';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE events.outbox ADD COLUMN commit_order xid8 NOT NULL DEFAULT pg_current_xact_id()`,
    );
    await q.query(
      `CREATE INDEX outbox_subject_commit_order ON events.outbox (tenant_code, subject_type, subject_id, commit_order)
        WHERE subject_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX outbox_tenant_commit_order ON events.outbox (tenant_code, commit_order, position)`,
    );
    await q.query(`
      CREATE FUNCTION events.outbox_commit_order() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.subject_id IS NOT NULL THEN
          NEW.commit_order := greatest(NEW.commit_order,
            (SELECT max(o.commit_order) FROM events.outbox o
              WHERE o.tenant_code = NEW.tenant_code AND o.subject_type = NEW.subject_type
                AND o.subject_id = NEW.subject_id));
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER outbox_commit_order BEFORE INSERT ON events.outbox
      FOR EACH ROW EXECUTE FUNCTION events.outbox_commit_order()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER outbox_commit_order ON events.outbox`);
    await q.query(`DROP FUNCTION events.outbox_commit_order()`);
    await q.query(`DROP INDEX events.outbox_tenant_commit_order`);
    await q.query(`DROP INDEX events.outbox_subject_commit_order`);
    await q.query(`ALTER TABLE events.outbox DROP COLUMN commit_order`);
  }
}
