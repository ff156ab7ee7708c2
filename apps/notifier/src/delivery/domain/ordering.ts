export { webhookEnvelope, type WebhookEnvelope } from '@fincore/events';

/** How long after the head's own due time a waiting delivery looks again, if nobody woke it. */
export const CHAIN_RECHECK_MS = 1000;
/** The longest a waiting delivery sleeps without looking, whatever the head's schedule says. */
export const CHAIN_MAX_WAIT_MS = 5 * 60_000;

/**
 * When a delivery that waits behind an earlier pending one of its chain looks again: just after
 * the head's next attempt, when it may have finished. The head's worker wakes it sooner when the
 * head finishes; this time is only the net for a wake-up lost to a crash, so it is capped.
 */
export function recheckBehindHead(headDueAt: Date | null, now: Date): Date {
  const due = Math.max(headDueAt?.getTime() ?? now.getTime(), now.getTime());
  return new Date(Math.min(due + CHAIN_RECHECK_MS, now.getTime() + CHAIN_MAX_WAIT_MS));
}
