import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The subject a kept answer is about (a person created, say), so that erasing the subject can
 * delete the answers that carry its data: their bodies are sealed with the client's key and
 * cannot be searched.
 */
export class PlatformIdempotencySubject1763700001210 implements MigrationInterface {
  name = 'PlatformIdempotencySubject1763700001210';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE platform.idempotency_keys ADD COLUMN subject_type varchar(32), ADD COLUMN subject_id text`,
    );
    await q.query(
      `CREATE INDEX idempotency_keys_subject ON platform.idempotency_keys (tenant_id, subject_type, subject_id)
        WHERE subject_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX platform.idempotency_keys_subject`);
    await q.query(`ALTER TABLE platform.idempotency_keys DROP COLUMN subject_id, DROP COLUMN subject_type`);
  }
}
