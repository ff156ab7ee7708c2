import { Injectable, Logger } from '@nestjs/common';
import {
  decideOnExistingKey,
  IDEMPOTENCY_CLAIM_LOCK_SECONDS,
  IDEMPOTENCY_KEY_TTL_SECONDS,
  isFinalAnswer,
  StoredAnswer,
} from './idempotency-key';
import { ClaimTimes, IdempotencyClaim, IdempotencyKeyRepository } from './idempotency-key.repository';

export type ClaimOutcome =
  | { kind: 'claimed'; claim: IdempotencyClaim }
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

  async claim(tenantId: string, key: string, fingerprint: string): Promise<ClaimOutcome> {
    for (let attempt = 1; ; attempt++) {
      const claim = await this.keys.claimNew(tenantId, key, fingerprint, TIMES);
      if (claim) return { kind: 'claimed', claim };
      const existing = await this.keys.find(tenantId, key);
      if (existing) {
        const decision = decideOnExistingKey(existing, fingerprint);
        if (decision.kind !== 'take_over') return decision;
        const taken = await this.keys.takeOver(tenantId, key, existing.claimId, fingerprint, TIMES);
        if (taken) return { kind: 'claimed', claim: taken };
      }
      // Another request released, took over or completed the key meanwhile: look again.
      if (attempt >= CLAIM_ATTEMPTS) return { kind: 'in_flight' };
    }
  }

  /** Frees the key without keeping the answer, so that a retry runs the request again. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.settle(claim, { status: 500, headers: {}, body: null });
  }

  /** Keeps a final answer for replay; frees the key otherwise. Never fails the response it follows. */
  async settle(claim: IdempotencyClaim, answer: StoredAnswer): Promise<void> {
    try {
      if (!isFinalAnswer(answer.status)) return await this.keys.release(claim);
      if (!(await this.keys.complete(claim, answer))) {
        this.logger.warn(
          `Idempotency key of tenant ${claim.tenantId} was taken over before its answer was stored`,
        );
      }
    } catch (error) {
      // The claim then expires and a retry runs the request again; the caller still gets this answer.
      this.logger.error({ err: error }, `Could not settle an idempotency key of tenant ${claim.tenantId}`);
    }
  }
}
