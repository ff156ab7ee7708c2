import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ordered delivery per subject, opt-in per endpoint. A delivery to an ordered endpoint carries its
 * subject and its sequence among that endpoint's deliveries about the subject (1, 2, 3… without
 * gaps, assigned at fan-out in commit order); the counters live in webhook_subject_sequences and
 * are kept for good, so a sequence never restarts.
 */
export class NotificationsSubjectOrdering1763700000910 implements MigrationInterface {
  name = 'NotificationsSubjectOrdering1763700000910';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE notifications.webhook_endpoints
         ADD COLUMN ordering varchar(16) NOT NULL DEFAULT 'NONE' CHECK (ordering IN ('NONE', 'SUBJECT'))`,
    );
    await q.query(
      `ALTER TABLE notifications.webhook_deliveries
         ADD COLUMN subject_type varchar(32), ADD COLUMN subject_id text, ADD COLUMN sequence bigint`,
    );
    await q.query(`
      CREATE TABLE notifications.webhook_subject_sequences (
        endpoint_id uuid NOT NULL REFERENCES notifications.webhook_endpoints (id),
        subject_type varchar(32) NOT NULL,
        subject_id text NOT NULL,
        last_sequence bigint NOT NULL,
        PRIMARY KEY (endpoint_id, subject_type, subject_id)
      )`);
    // The head of a subject's chain: its pending delivery with the lowest sequence.
    await q.query(
      `CREATE INDEX webhook_deliveries_subject_chain
         ON notifications.webhook_deliveries (endpoint_id, subject_type, subject_id, sequence)
        WHERE status = 'PENDING' AND sequence IS NOT NULL`,
    );
    // A tenant's backlog, which sets the priority of its delivery jobs.
    await q.query(
      `CREATE INDEX webhook_deliveries_tenant_pending ON notifications.webhook_deliveries (tenant_id) WHERE status = 'PENDING'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX notifications.webhook_deliveries_tenant_pending`);
    await q.query(`DROP INDEX notifications.webhook_deliveries_subject_chain`);
    await q.query(`DROP TABLE notifications.webhook_subject_sequences`);
    await q.query(
      `ALTER TABLE notifications.webhook_deliveries DROP COLUMN sequence, DROP COLUMN subject_id, DROP COLUMN subject_type`,
    );
    await q.query(`ALTER TABLE notifications.webhook_endpoints DROP COLUMN ordering`);
  }
}
