import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { ReceivedWebhook, verifiesV1a, WebhookReceiver } from '../../support/webhook-receiver';
import type { ChangeKind } from './change-stream';

/** One scenario's outcome, as the summary reports it. */
export interface DeliveryFigures {
  scenario: string;
  /** Events of the stream's kind on its subjects that PostgreSQL's outbox holds: what must arrive. */
  committed: number;
  acknowledged: number;
  /** Distinct committed events whose webhook every endpoint accepted (2xx) and verified. */
  received: number;
  missing: number;
  /** Webhooks accepted more than once under the same webhook-id (at least once allows it). */
  duplicates: number;
  /** How many duplicates the faults allow: deliveries that can be in flight when they strike. */
  duplicateBound: number;
  /** Duplicates first accepted outside every fault's window (see `FaultWorld.duplicatesOutsideFaults`). */
  duplicatesOutsideFaults?: number;
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
  /** The faults the scenario made, when and for how long. */
  faults?: string[];
  /** Wall time of the scenario, from its world's start to its figures. */
  durationSeconds?: number;
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

/** A committed event as the outbox holds it: its id is the webhook-id of every delivery of it. */
export interface CommittedEvent {
  id: string;
  key: string;
}

/** What one accepted webhook told, checked once. */
interface Reading {
  verified: boolean;
  id: string;
  key: string;
  at: number;
}

/** A webhook-id accepted more than once at an endpoint, and when it first arrived there. */
export interface Duplicate {
  path: string;
  id: string;
  firstAt: number;
}

/** The events of `kind` on `subjects` committed in the outbox of the database at `url`. */
export async function committedEvents(
  url: string,
  kind: ChangeKind,
  subjects: string[],
): Promise<CommittedEvent[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; data: unknown }>(
      `SELECT id, data FROM events.outbox
        WHERE type = $1 AND coalesce(data->>'personId', data->>'cardId') = ANY($2)`,
      [kind.type, subjects],
    );
    return rows.map((r) => ({ id: r.id, key: kind.keyOfEvent(r.data) }));
  } finally {
    await client.end();
  }
}

/**
 * Reads the receiver's log against the committed events, per endpoint: only webhooks the
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
    private readonly kind: ChangeKind,
  ) {
    for (const endpoint of endpoints) this.readings.set(endpoint.path, []);
  }

  /**
   * An event counts as received once every endpoint accepted its webhook; `missing` names each
   * endpoint that lacks one, and each acknowledged change the outbox lacks. `reusedChanges` names
   * any change committed or delivered under two webhook-ids.
   */
  figures(
    scenario: string,
    committed: CommittedEvent[],
    acknowledged: Set<string>,
    statuses: Map<number, number>,
    settleSeconds: number,
  ) {
    this.catchUp();
    const missing: string[] = [];
    const reusedChanges = reused(
      committed.map((e) => ({ key: e.key, id: e.id })),
      'outbox',
    );
    const duplicates: Duplicate[] = [];
    const delivered = new Set<string>();
    let unverified = 0;
    const missingIds = new Set<string>();
    const committedKeys = new Set(committed.map((e) => e.key));
    missing.push(...[...acknowledged].filter((k) => !committedKeys.has(k)).map((k) => `outbox ${k}`));
    for (const [path, readings] of this.readings) {
      const verified = readings.filter((r) => r.verified);
      unverified += readings.length - verified.length;
      reusedChanges.push(...reused(verified, path));
      const firstAt = new Map<string, number>();
      for (const r of verified) {
        if (firstAt.has(r.id)) duplicates.push({ path, id: r.id, firstAt: firstAt.get(r.id)! });
        else firstAt.set(r.id, r.at);
        delivered.add(r.key);
      }
      const lacking = committed.filter((e) => !firstAt.has(e.id));
      for (const e of lacking) missingIds.add(e.id);
      missing.push(...lacking.map((e) => `${path} ${e.id} ${e.key}`));
    }
    const received = committed.length - missingIds.size;
    const figures: DeliveryFigures = {
      scenario,
      committed: committed.length,
      acknowledged: acknowledged.size,
      received,
      missing: missingIds.size,
      duplicates: duplicates.length,
      duplicateBound: 0,
      unacknowledgedDelivered: [...delivered].filter((key) => !acknowledged.has(key)).length,
      unverified,
      statuses: Object.fromEntries([...statuses].map(([status, n]) => [String(status || 'no answer'), n])),
      settleSeconds,
    };
    return { figures, missing, reusedChanges, duplicates };
  }

  /** Polls until every committed event's webhook is in, or the deadline passes. */
  async waitForAll(commits: () => Promise<CommittedEvent[]>, acknowledged: Set<string>, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.figures('', await commits(), acknowledged, new Map(), 0).missing.length === 0) return;
      await sleep(500);
    }
  }

  /** Verifies the webhooks accepted since the last look. */
  private catchUp(): void {
    const received = this.receiver.received;
    for (; this.read < received.length; this.read++) {
      const webhook = received[this.read];
      const readings = this.readings.get(webhook.path);
      if (!readings || webhook.answeredWith < 200 || webhook.answeredWith >= 300) continue;
      // Another type the tenant enables (none of the stream's changes) is not this ledger's.
      if (webhook.json?.type && webhook.json.type !== this.kind.type) continue;
      const endpoint = this.endpoints.find((e) => e.path === webhook.path)!;
      readings.push(reading(webhook, endpoint, this.kind));
    }
  }
}

/** Keys that come under more than one id, as `<where> <key>`. */
function reused(entries: Array<{ key: string; id: string }>, where: string): string[] {
  const idByKey = new Map<string, string>();
  const found: string[] = [];
  for (const { key, id } of entries) {
    if ((idByKey.get(key) ?? id) !== id) found.push(`${where} ${key}`);
    idByKey.set(key, id);
  }
  return found;
}

function reading(webhook: ReceivedWebhook, endpoint: LedgerEndpoint, kind: ChangeKind): Reading {
  const id = String(webhook.headers['webhook-id']);
  const payload = webhook.json;
  let verified = payload?.id === id && (endpoint.secret !== undefined || endpoint.publicKey !== undefined);
  try {
    if (endpoint.secret)
      new Webhook(endpoint.secret).verify(webhook.body, webhook.headers as Record<string, string>);
  } catch {
    verified = false;
  }
  if (endpoint.publicKey && !verifiesV1a(webhook, endpoint.publicKey)) verified = false;
  return { verified, id, key: kind.keyOfEvent(payload?.data), at: webhook.receivedAt.getTime() };
}
