import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An erased person stays as a tombstone: the person id and a digest of the username stay taken,
 * and the erasure record says when, by which token and in which request. An erased row holds no
 * profile field.
 */
export class CredentialsPersonsErasure1763700001200 implements MigrationInterface {
  name = 'CredentialsPersonsErasure1763700001200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE credentials.persons
        ADD COLUMN erased_at timestamptz,
        ADD COLUMN erased_by_token_id uuid,
        ADD COLUMN erasure_request_id varchar(128),
        ADD CONSTRAINT persons_erased_profile CHECK (
          erased_at IS NULL
          OR (first_name IS NULL AND last_name IS NULL AND email IS NULL AND phone IS NULL AND password_hash = ''))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE credentials.persons DROP CONSTRAINT persons_erased_profile,
        DROP COLUMN erasure_request_id, DROP COLUMN erased_by_token_id, DROP COLUMN erased_at`);
  }
}
