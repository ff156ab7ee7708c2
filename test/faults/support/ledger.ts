import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { ReceivedWebhook, verifiesV1a, WebhookReceiver } from '../../support/webhook-receiver';
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
  /** What else the scenario measured, for its line. */
  notes?: string;
}

/** An endpoint of the scenario's tenant at the receiver, and how a subscriber checks its webhooks. */
export interface LedgerEndpoint {
  /** The path its webhooks arrive at. */
  path: string;
  /** Checked with `standardwebhooks` (v1) when given. */
  secret?: string;
  /** The published `whpk_` key, checked with node:crypto (v1a) when given. */
  publicKey?: string;
}

/** What one accepted webhook told, checked once. */
interface Reading {
  verified: boolean;
  id: string;
  key: string;
}

/**
 * Reads the receiver's log against the acknowledged changes, per endpoint: only webhooks the
 * receiver accepted (2xx) count, each verified as a subscriber would, by every scheme the endpoint
 * is given (`standardwebhooks` for v1, node:crypto for v1a). Each webhook is read once, however
 * often the figures are asked for, so polling stays light beside the receiver it shares a process with.
 */
export class DeliveryLedger {
  private readonly readings = new Map<string, Reading[]>();
  private read = 0;

  constructor(
    private readonly receiver: WebhookReceiver,
    private readonly endpoints: readonly LedgerEndpoint[],
  ) {
    for (const endpoint of endpoints) this.readings.set(endpoint.path, []);
  }

  /**
   * A change counts as received once every endpoint accepted its webhook; `missing` names each
   * endpoint that lacks one, and `reusedChanges` any change that came under two webhook-ids.
   */
  figures(scenario: string, acknowledged: Set<string>, statuses: Map<number, number>, settleSeconds: number) {
    this.catchUp();
    const missing: string[] = [];
    const reusedChanges: string[] = [];
    const delivered = new Set<string>();
    let duplicates = 0;
    let unverified = 0;
    for (const [path, readings] of this.readings) {
      const idByKey = new Map<string, string>();
      for (const r of readings.filter((r) => r.verified)) {
        if ((idByKey.get(r.key) ?? r.id) !== r.id) reusedChanges.push(`${path} ${r.key}`);
        idByKey.set(r.key, r.id);
        delivered.add(r.key);
      }
      const verified = readings.filter((r) => r.verified);
      unverified += readings.length - verified.length;
      duplicates += verified.length - new Set(verified.map((r) => r.id)).size;
      missing.push(...[...acknowledged].filter((key) => !idByKey.has(key)).map((key) => `${path} ${key}`));
    }
    const missingChanges = new Set(missing.map((m) => m.split(' ')[1]));
    const figures: DeliveryFigures = {
      scenario,
      acknowledged: acknowledged.size,
      received: acknowledged.size - missingChanges.size,
      missing: missingChanges.size,
      duplicates,
      unacknowledgedDelivered: [...delivered].filter((key) => !acknowledged.has(key)).length,
      unverified,
      statuses: Object.fromEntries([...statuses].map(([status, n]) => [String(status || 'no answer'), n])),
      settleSeconds,
    };
    return { figures, missing, reusedChanges };
  }

  /** Polls until every acknowledged change's webhook is in, or the deadline passes; answers what is missing. */
  async waitForAll(acknowledged: Set<string>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.figures('', acknowledged, new Map(), 0).missing.length === 0) return;
      await sleep(250);
    }
  }

  /** Verifies the webhooks accepted since the last look. */
  private catchUp(): void {
    const received = this.receiver.received;
    for (; this.read < received.length; this.read++) {
      const webhook = received[this.read];
      const readings = this.readings.get(webhook.path);
      if (!readings || webhook.answeredWith < 200 || webhook.answeredWith >= 300) continue;
      const endpoint = this.endpoints.find((e) => e.path === webhook.path)!;
      readings.push(reading(webhook, endpoint));
    }
  }
}

function reading(webhook: ReceivedWebhook, endpoint: LedgerEndpoint): Reading {
  const id = String(webhook.headers['webhook-id']);
  const payload = webhook.json;
  const key = changeKey(payload?.data?.personId, payload?.data?.person?.firstName);
  let verified = payload?.id === id && (endpoint.secret !== undefined || endpoint.publicKey !== undefined);
  try {
    if (endpoint.secret)
      new Webhook(endpoint.secret).verify(webhook.body, webhook.headers as Record<string, string>);
  } catch {
    verified = false;
  }
  if (endpoint.publicKey && !verifiesV1a(webhook, endpoint.publicKey)) verified = false;
  return { verified, id, key };
}
