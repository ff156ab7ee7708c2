import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { AnswerSubject } from './answer-subject.decorator';
import { IdempotencyKeyRecord, StoredAnswer } from './idempotency-key';

/** A request's hold on a key: only the holder (same claim id) may store its answer or release it. */
export interface IdempotencyClaim {
  tenantId: string;
  /** `keyDigest` of the key. */
  keyDigest: string;
  claimId: string;
}

export interface ClaimTimes {
  lockSeconds: number;
  ttlSeconds: number;
}

/** TypeORM answers an UPDATE … RETURNING as [rows, count]. */
function updatedRows<T>(result: unknown): T[] {
  return Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as T[]) : [];
}

interface KeyRow {
  claim_id: string;
  fingerprint: string;
  status: 'in_progress' | 'completed';
  locked_until: Date;
  expires_at: Date;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  checked_at: Date;
}

/**
 * The one owner of `platform.idempotency_keys`. Every statement runs on its own (autocommit),
 * outside the request's unit of work, so a claim is visible to every replica at once. Times come
 * from the database's clock, the one all replicas share.
 */
@Injectable()
export class IdempotencyKeyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Claims a key (by its digest) nobody holds, in one statement; undefined when the key is already in the table. */
  async claimNew(
    tenantId: string,
    keyDigest: string,
    fingerprint: string,
    times: ClaimTimes,
  ): Promise<IdempotencyClaim | undefined> {
    const rows: Array<{ claim_id: string }> = await this.db.query(
      `INSERT INTO platform.idempotency_keys (tenant_id, key_digest, fingerprint, claim_id, locked_until, expires_at)
       VALUES ($1, $2, $3, gen_random_uuid(), now() + make_interval(secs => $4), now() + make_interval(secs => $5))
       ON CONFLICT (tenant_id, key_digest) DO NOTHING
       RETURNING claim_id`,
      [tenantId, keyDigest, fingerprint, times.lockSeconds, times.ttlSeconds],
    );
    return rows[0] && { tenantId, keyDigest, claimId: rows[0].claim_id };
  }

  /** The key's row as it stands, with the database's clock; undefined when there is none. */
  async find(tenantId: string, keyDigest: string): Promise<IdempotencyKeyRecord | undefined> {
    const rows: KeyRow[] = await this.db.query(
      `SELECT claim_id, fingerprint, status, locked_until, expires_at,
              response_status, response_headers, response_body, now() AS checked_at
         FROM platform.idempotency_keys
        WHERE tenant_id = $1 AND key_digest = $2`,
      [tenantId, keyDigest],
    );
    const row = rows[0];
    if (!row) return undefined;
    const answer: StoredAnswer | null =
      row.response_status === null
        ? null
        : { status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body };
    return {
      claimId: row.claim_id,
      fingerprint: row.fingerprint.trim(),
      status: row.status,
      lockedUntil: row.locked_until,
      expiresAt: row.expires_at,
      answer,
      checkedAt: row.checked_at,
    };
  }

  /**
   * Claims the key anew for another request, if it still has the claim that was seen
   * (compare-and-set): of two retries taking over one abandoned claim, one wins.
   */
  async takeOver(
    tenantId: string,
    keyDigest: string,
    seenClaimId: string,
    fingerprint: string,
    times: ClaimTimes,
  ): Promise<IdempotencyClaim | undefined> {
    const rows = updatedRows<{ claim_id: string }>(
      await this.db.query(
        `UPDATE platform.idempotency_keys
          SET fingerprint = $4, claim_id = gen_random_uuid(), status = 'in_progress',
              locked_until = now() + make_interval(secs => $5), expires_at = now() + make_interval(secs => $6),
              created_at = now(), response_status = NULL, response_headers = NULL, response_body = NULL,
              subject_type = NULL, subject_id = NULL
        WHERE tenant_id = $1 AND key_digest = $2 AND claim_id = $3
        RETURNING claim_id`,
        [tenantId, keyDigest, seenClaimId, fingerprint, times.lockSeconds, times.ttlSeconds],
      ),
    );
    return rows[0] && { tenantId, keyDigest, claimId: rows[0].claim_id };
  }

  /** Stores the final answer under the claim; false when the claim was lost (taken over). */
  async complete(claim: IdempotencyClaim, answer: StoredAnswer, subject?: AnswerSubject): Promise<boolean> {
    const rows = updatedRows(
      await this.db.query(
        `UPDATE platform.idempotency_keys
          SET status = 'completed', response_status = $4, response_headers = $5, response_body = $6,
              subject_type = $7, subject_id = $8
        WHERE tenant_id = $1 AND key_digest = $2 AND claim_id = $3
        RETURNING 1`,
        [
          claim.tenantId,
          claim.keyDigest,
          claim.claimId,
          answer.status,
          JSON.stringify(answer.headers),
          answer.body,
          subject?.type ?? null,
          subject?.id ?? null,
        ],
      ),
    );
    return rows.length > 0;
  }

  /**
   * Deletes the kept answers about the subject (see IdempotentAnswerAbout), in the caller's
   * transaction: they carry its data. A retry under such a key runs its request again. Answers how
   * many it deleted.
   */
  async deleteAnswersAbout(
    manager: EntityManager,
    tenantId: string,
    subject: AnswerSubject,
  ): Promise<number> {
    const [, affected]: [unknown, number] = await manager.query(
      `DELETE FROM platform.idempotency_keys WHERE tenant_id = $1 AND subject_type = $2 AND subject_id = $3`,
      [tenantId, subject.type, subject.id],
    );
    return affected;
  }

  /** Frees the key for a retry (the request had no final answer); nothing when the claim was lost. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.db.query(
      `DELETE FROM platform.idempotency_keys WHERE tenant_id = $1 AND key_digest = $2 AND claim_id = $3`,
      [claim.tenantId, claim.keyDigest, claim.claimId],
    );
  }

  /**
   * Deletes up to `limit` expired keys; returns how many. Rows another replica is deleting are
   * skipped, so replicas cleaning at once neither wait for nor fail on each other.
   */
  async deleteExpired(limit: number): Promise<number> {
    const [{ n }]: Array<{ n: number }> = await this.db.query(
      `WITH gone AS (
         DELETE FROM platform.idempotency_keys
          WHERE ctid IN (SELECT ctid FROM platform.idempotency_keys
                          WHERE expires_at <= now()
                          LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [limit],
    );
    return n;
  }
}
