import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import type { WebhookReceiver } from '../../support/webhook-receiver';
import { changeKey } from './change-stream';

/** One scenario's outcome, as the summary reports it. */
export interface DeliveryFigures {
  scenario: string;
  acknowledged: number;
  /** Distinct acknowledged changes whose webhook arrived, accepted (2xx) and verified. */
  received: number;
  missing: number;
  /** Webhooks accepted more than once under the same webhook-id (at least once allows it). */
  duplicates: number;
  /** Verified webhooks of changes whose caller got no 2xx (committed, then the answer failed). */
  unacknowledgedDelivered: number;
  /** Accepted webhooks whose signature or webhook-id did not check out. */
  unverified: number;
  /** Answers the callers got, by status. */
  statuses: Record<string, number>;
  /** Jobs not yet run when the figures were taken (then duplicates may be more); empty is the rule. */
  unfinishedJobs?: Record<string, number>;
  /** Seconds from the end of the stream until the last missing webhook arrived (or the deadline). */
  settleSeconds: number;
}

/**
 * Reads the receiver's log against the acknowledged changes: only webhooks the receiver accepted
 * (2xx) count, each verified with `standardwebhooks` against the endpoint's secret.
 */
export class DeliveryLedger {
  constructor(
    private readonly receiver: WebhookReceiver,
    private readonly secret: string,
  ) {}

  figures(scenario: string, acknowledged: Set<string>, statuses: Map<number, number>, settleSeconds: number) {
    const verifier = new Webhook(this.secret);
    const keys = new Set<string>();
    const ids = new Set<string>();
    let accepted = 0;
    let unverified = 0;
    for (const webhook of this.receiver.received) {
      if (webhook.answeredWith < 200 || webhook.answeredWith >= 300) continue;
      accepted++;
      let payload: any;
      try {
        payload = verifier.verify(webhook.body, webhook.headers as Record<string, string>);
      } catch {
        unverified++;
        continue;
      }
      if (payload.id !== webhook.headers['webhook-id']) unverified++;
      ids.add(payload.id);
      keys.add(changeKey(payload.data.personId, payload.data.person.firstName));
    }
    const missing = [...acknowledged].filter((key) => !keys.has(key));
    const figures: DeliveryFigures = {
      scenario,
      acknowledged: acknowledged.size,
      received: acknowledged.size - missing.length,
      missing: missing.length,
      duplicates: accepted - unverified - ids.size,
      unacknowledgedDelivered: [...keys].filter((key) => !acknowledged.has(key)).length,
      unverified,
      statuses: Object.fromEntries([...statuses].map(([status, n]) => [String(status || 'no answer'), n])),
      settleSeconds,
    };
    return { figures, missing };
  }

  /** Polls until every acknowledged change's webhook is in, or the deadline passes; answers what is missing. */
  async waitForAll(acknowledged: Set<string>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.figures('', acknowledged, new Map(), 0).missing.length === 0) return;
      await sleep(250);
    }
  }
}
