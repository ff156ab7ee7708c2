import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** A portal session as the auth guard needs it. */
export interface ActivePortalSession {
  id: string;
  tenantId: string;
  tenantCode: string;
  readOnly: boolean;
}

/** What opening a link found: a fresh session, or why there is none. */
export type LinkOpening =
  { outcome: 'opened'; readOnly: boolean; expiresAt: Date } | { outcome: 'used' | 'expired' | 'unknown' };

/**
 * The one owner of `platform.portal_sessions`: a one-time link until it is opened, the session it
 * became afterwards. Rows hold SHA-256 digests of the link's code and of the session's cookie.
 */
@Injectable()
export class PortalSessionRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Records a new link, and drops the tenant's rows that ended more than a day ago. */
  async createLink(link: {
    tenantId: string;
    codeDigest: string;
    readOnly: boolean;
    expiresAt: Date;
  }): Promise<void> {
    await this.db.query(
      `WITH ended AS (
         DELETE FROM platform.portal_sessions
          WHERE tenant_id = $1 AND coalesce(expires_at, link_expires_at) < now() - interval '1 day')
       INSERT INTO platform.portal_sessions (tenant_id, code_digest, read_only, link_expires_at)
       VALUES ($1, $2, $3, $4)`,
      [link.tenantId, link.codeDigest, link.readOnly, link.expiresAt],
    );
  }

  /**
   * Turns the link into a session in one statement, only while it is unopened and unexpired; the
   * row lock makes one of two simultaneous openings the only one.
   */
  async openLink(codeDigest: string, sessionDigest: string, sessionSeconds: number): Promise<LinkOpening> {
    const rows: Array<{
      used: boolean;
      expired: boolean;
      read_only: boolean | null;
      expires_at: Date | null;
    }> = await this.db.query(
      `WITH link AS (
           SELECT id, opened_at, link_expires_at FROM platform.portal_sessions WHERE code_digest = $1 FOR UPDATE),
         opened AS (
           UPDATE platform.portal_sessions s
              SET opened_at = now(), session_digest = $2, expires_at = now() + make_interval(secs => $3)
             FROM link
            WHERE s.id = link.id AND link.opened_at IS NULL AND link.link_expires_at > now()
           RETURNING s.read_only, s.expires_at)
         SELECT link.opened_at IS NOT NULL AS used, link.link_expires_at <= now() AS expired,
                opened.read_only, opened.expires_at
           FROM link LEFT JOIN opened ON true`,
      [codeDigest, sessionDigest, sessionSeconds],
    );
    const row = rows[0];
    if (!row) return { outcome: 'unknown' };
    if (row.expires_at && row.read_only !== null)
      return { outcome: 'opened', readOnly: row.read_only, expiresAt: row.expires_at };
    return { outcome: row.used ? 'used' : 'expired' };
  }

  /** Ends the session now: its cookie authenticates nothing from here on, on any replica. */
  async end(sessionId: string): Promise<void> {
    await this.db.query(
      `UPDATE platform.portal_sessions SET expires_at = now() WHERE id = $1 AND expires_at > now()`,
      [sessionId],
    );
  }

  /** The unexpired session with this cookie digest and its tenant's code, in one round trip. */
  async findActive(sessionDigest: string): Promise<ActivePortalSession | undefined> {
    const rows: Array<{ id: string; tenant_id: string; code: string; read_only: boolean }> =
      await this.db.query(
        `SELECT s.id, s.tenant_id, t.code, s.read_only
         FROM platform.portal_sessions s JOIN platform.tenants t ON t.id = s.tenant_id
        WHERE s.session_digest = $1 AND s.expires_at > now()`,
        [sessionDigest],
      );
    const row = rows[0];
    return row && { id: row.id, tenantId: row.tenant_id, tenantCode: row.code, readOnly: row.read_only };
  }
}
