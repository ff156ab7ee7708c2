import { Injectable, Logger } from '@nestjs/common';
import {
  decideOnExistingKey,
  IDEMPOTENCY_CLAIM_LOCK_SECONDS,
  IDEMPOTENCY_KEY_TTL_SECONDS,
  isFinalAnswer,
  keyDigest,
  openAnswerBody,
  sealAnswerBody,
  StoredAnswer,
} from './idempotency-key';
import { ClaimTimes, IdempotencyClaim, IdempotencyKeyRepository } from './idempotency-key.repository';
import { AnswerSubjectField, subjectOfAnswer } from './answer-subject.decorator';

/**
 * A key this request holds: the claim in the table, the key that seals its answer, and where the
 * answer names its subject when the route says (see IdempotentAnswerAbout).
 */
export interface HeldIdempotencyKey {
  key: string;
  claim: IdempotencyClaim;
  about?: AnswerSubjectField;
}

export type ClaimOutcome =
  | { kind: 'claimed'; held: HeldIdempotencyKey }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'in_flight' }
  | { kind: 'mismatch' };

const TIMES: ClaimTimes = {
  lockSeconds: IDEMPOTENCY_CLAIM_LOCK_SECONDS,
  ttlSeconds: IDEMPOTENCY_KEY_TTL_SECONDS,
};
/** A key released or taken over between our statements is claimed again; this bounds the loop. */
const CLAIM_ATTEMPTS = 5;

/** Claims a tenant's Idempotency-Key for a request, and settles it with the request's answer. */
@Injectable()
export class IdempotencyKeys {
  private readonly logger = new Logger('IdempotencyKeys');

  constructor(private readonly keys: IdempotencyKeyRepository) {}

  /** `fingerprint` is `requestFingerprint` of the request under this key. */
  async claim(tenantId: string, key: string, fingerprint: string): Promise<ClaimOutcome> {
    const digest = keyDigest(key);
    for (let attempt = 1; ; attempt++) {
      const claim = await this.keys.claimNew(tenantId, digest, fingerprint, TIMES);
      if (claim) return { kind: 'claimed', held: { key, claim } };
      const existing = await this.keys.find(tenantId, digest);
      if (existing) {
        const decision = decideOnExistingKey(existing, fingerprint);
        if (decision.kind === 'replay') return { kind: 'replay', answer: opened(key, decision.answer) };
        if (decision.kind !== 'take_over') return decision;
        const taken = await this.keys.takeOver(tenantId, digest, existing.claimId, fingerprint, TIMES);
        if (taken) return { kind: 'claimed', held: { key, claim: taken } };
      }
      // Another request released, took over or completed the key meanwhile: look again.
      if (attempt >= CLAIM_ATTEMPTS) return { kind: 'in_flight' };
    }
  }

  /** Keeps a final answer for replay; frees the key otherwise. Never fails the response it follows. */
  async settle({ key, claim, about }: HeldIdempotencyKey, answer: StoredAnswer): Promise<void> {
    try {
      if (!isFinalAnswer(answer.status)) return await this.keys.release(claim);
      const sealed = { ...answer, body: answer.body === null ? null : sealAnswerBody(key, answer.body) };
      const subject = subjectOfAnswer(about, answer.status, answer.body);
      if (!(await this.keys.complete(claim, sealed, subject))) {
        this.logger.warn(
          `Idempotency key of tenant ${claim.tenantId} was taken over before its answer was stored`,
        );
      }
    } catch (error) {
      // The claim then expires and a retry runs the request again; the caller still gets this answer.
      this.logger.error({ err: error }, `Could not settle an idempotency key of tenant ${claim.tenantId}`);
    }
  }

  /** Frees the key without keeping the answer, so that a retry runs the request again. */
  async release(held: HeldIdempotencyKey): Promise<void> {
    await this.settle(held, { status: 500, headers: {}, body: null });
  }
}

function opened(key: string, answer: StoredAnswer): StoredAnswer {
  return { ...answer, body: answer.body === null ? null : openAnswerBody(key, answer.body) };
}
