import { MigrationInterface, QueryRunner } from 'typeorm';

export class PlatformPortalSessions1763700001010 implements MigrationInterface {
  name = 'PlatformPortalSessions1763700001010';

  async up(q: QueryRunner): Promise<void> {
    // One row per portal link: the link's one-time code until it is opened, then the session it
    // became. Only SHA-256 digests are kept: a database reader can neither open a link nor take
    // over a session.
    await q.query(`
      CREATE TABLE platform.portal_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES platform.tenants(id) ON DELETE CASCADE,
        code_digest char(64) NOT NULL UNIQUE,
        read_only boolean NOT NULL,
        link_expires_at timestamptz NOT NULL,
        session_digest char(64) UNIQUE,
        opened_at timestamptz,
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((opened_at IS NULL) = (session_digest IS NULL) AND (opened_at IS NULL) = (expires_at IS NULL))
      )`);
    await q.query(
      `CREATE INDEX portal_sessions_tenant_id ON platform.portal_sessions (tenant_id, created_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE platform.portal_sessions`);
  }
}
