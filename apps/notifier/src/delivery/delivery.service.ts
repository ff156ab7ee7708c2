import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { OutboxEventEntity, toEnvelope } from '@fincore/events';
import { APP_CONFIG, AppConfig } from '@fincore/platform';
import { SecretBox, signWebhook } from '@fincore/webhooks';
import { NotifierMetrics } from '../shared/notifier-metrics';
import {
  Decision,
  decideAfterAttempt,
  isSuccess,
  parseRetrySchedule,
  shouldDisableEndpoint,
} from './domain/retry-policy';
import { sendWebhook, SentAttempt } from './webhook-sender';

/** What the job does next: nothing (finished or not ours), or run again at a time. */
export type AttemptOutcome = { kind: 'done' } | { kind: 'run_at'; at: Date };

interface DeliveryRow {
  id: string;
  tenant_id: string;
  endpoint_id: string;
  event_id: string;
  status: string;
  next_attempt_at: Date | null;
  event_occurred_at: Date;
  url: string;
  endpoint_status: string;
  deleted_at: Date | null;
  disabled_reason: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  /** From the outbox; null when the event is missing there. */
  type: string | null;
  tenant_code: string;
  occurred_at: Date;
  correlation_id: string | null;
  data: Record<string, unknown>;
}

/** Early wake-ups (a reconciler re-add, a clock a little ahead) wait for their time instead of sending. */
const EARLY_TOLERANCE_MS = 25;
const ERROR_LENGTH = 500;

/**
 * One attempt of one delivery (DESIGN section 3, steps 4 and 5). PostgreSQL holds the truth:
 * status, attempts, next attempt time; the job is only the trigger, so a lost job loses nothing.
 */
@Injectable()
export class DeliveryService {
  private readonly logger = new Logger(DeliveryService.name);
  private readonly scheduleMs: number[];

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secrets: SecretBox,
    private readonly metrics: NotifierMetrics,
  ) {
    this.scheduleMs = parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE);
  }

  async attempt(deliveryId: string): Promise<AttemptOutcome> {
    const [row]: DeliveryRow[] = await this.db.query(
      `SELECT d.id, d.tenant_id, d.endpoint_id, d.event_id, d.status, d.next_attempt_at, d.event_occurred_at,
              e.url, e.status AS endpoint_status, e.deleted_at, e.disabled_reason,
              e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at,
              o.type, o.tenant_code, o.occurred_at, o.correlation_id, o.data
         FROM notifications.webhook_deliveries d
         JOIN notifications.webhook_endpoints e ON e.id = d.endpoint_id
         LEFT JOIN events.outbox o ON o.id = d.event_id
        WHERE d.id = $1`,
      [deliveryId],
    );
    if (!row || row.status !== 'PENDING') return { kind: 'done' };
    if (row.next_attempt_at && row.next_attempt_at.getTime() - Date.now() > EARLY_TOLERANCE_MS) {
      return { kind: 'run_at', at: row.next_attempt_at };
    }
    if (row.endpoint_status !== 'ACTIVE' || row.deleted_at || !row.type) {
      const reason = row.type
        ? `endpoint disabled: ${row.disabled_reason ?? 'deleted'}`
        : `event ${row.event_id} is missing from the outbox`;
      if (!row.type) this.logger.error(`Delivery ${row.id}: ${reason}`);
      await this.db.query(
        `UPDATE notifications.webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL, last_error = $2, updated_at = now()
          WHERE id = $1 AND status = 'PENDING'`,
        [row.id, reason.slice(0, ERROR_LENGTH)],
      );
      return { kind: 'done' };
    }
    const event = Object.assign(new OutboxEventEntity(), {
      id: row.event_id,
      type: row.type,
      tenantCode: row.tenant_code,
      occurredAt: row.occurred_at,
      correlationId: row.correlation_id,
      data: row.data,
    });
    const envelope = toEnvelope(event);
    const body = JSON.stringify(envelope);
    const now = new Date();
    const secrets = [this.secrets.open(row.secret_sealed)];
    if (
      row.previous_secret_sealed &&
      row.previous_secret_expires_at &&
      row.previous_secret_expires_at > now
    ) {
      secrets.push(this.secrets.open(row.previous_secret_sealed));
    }
    // webhook-id = event id: identical on every retry and replay, so receivers can deduplicate.
    const headers = signWebhook({ webhookId: envelope.id, body, secrets, timestamp: now });
    const sent = await sendWebhook({
      url: row.url,
      body,
      headers: { ...headers },
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      policy: { allowPrivateNetworks: this.config.WEBHOOK_ALLOW_PRIVATE_NETWORKS },
    });
    return this.record(row, now, sent);
  }

  /**
   * A success is one statement (attempt row, delivery, endpoint health), atomic on its own: it needs
   * nothing read first. A failure locks the delivery to count its attempts for the retry schedule.
   */
  private async record(row: DeliveryRow, startedAt: Date, sent: SentAttempt): Promise<AttemptOutcome> {
    const now = new Date();
    const outcome =
      sent.result.kind === 'response' && isSuccess(sent.result.statusCode)
        ? await this.writeAttempt(this.db.manager, row, startedAt, sent, { kind: 'succeeded' }, now)
        : await this.db.transaction(async (manager) => {
            // Lock order endpoint, then delivery: the same as the API's disable/delete, which locks the
            // endpoint and then fails its pending deliveries. The other order could deadlock.
            await manager.query(`SELECT 1 FROM notifications.webhook_endpoints WHERE id = $1 FOR UPDATE`, [
              row.endpoint_id,
            ]);
            const [current]: Array<{ cycle_attempts: number }> = await manager.query(
              `SELECT cycle_attempts FROM notifications.webhook_deliveries WHERE id = $1 FOR UPDATE`,
              [row.id],
            );
            const decision = decideAfterAttempt({
              result: sent.result,
              cycleAttempts: current.cycle_attempts + 1,
              scheduleMs: this.scheduleMs,
              now,
            });
            const written = await this.writeAttempt(manager, row, startedAt, sent, decision, now);
            await this.updateEndpointHealth(manager, row.endpoint_id, decision, now, statusCodeOf(sent));
            return written;
          });
    this.observe(outcome.decision, sent, row);
    return outcome.nextAt ? { kind: 'run_at', at: outcome.nextAt } : { kind: 'done' };
  }

  /**
   * The attempt row and the delivery's new state together. A delivery someone else finished while
   * we were sending (the tenant disabling the endpoint) keeps its status; a success clears the
   * endpoint's failure streak and, at most once a second, moves its lastSuccessAt, so concurrent
   * deliveries to one endpoint do not queue behind its row lock.
   */
  private async writeAttempt(
    manager: EntityManager,
    row: DeliveryRow,
    startedAt: Date,
    sent: SentAttempt,
    decision: Decision,
    now: Date,
  ) {
    const statusCode = statusCodeOf(sent);
    const succeeded = decision.kind === 'succeeded';
    const error = succeeded
      ? null
      : (sent.result.kind === 'error' ? sent.result.message : `HTTP ${statusCode}`).slice(0, ERROR_LENGTH);
    const nextAt = decision.kind === 'retry' ? new Date(now.getTime() + decision.delayMs) : null;
    const status = succeeded ? 'SUCCEEDED' : decision.kind === 'retry' ? 'PENDING' : 'FAILED';
    const [written]: Array<{ status: string }> = await manager.query(
      `WITH delivery AS (
         UPDATE notifications.webhook_deliveries
            SET status = CASE WHEN status = 'PENDING' THEN $2::varchar ELSE status END,
                next_attempt_at = CASE WHEN status = 'PENDING' THEN $3::timestamptz END,
                delivered_at = CASE WHEN status = 'PENDING' AND $2::varchar = 'SUCCEEDED' THEN $4::timestamptz ELSE delivered_at END,
                attempt_count = attempt_count + 1, cycle_attempts = cycle_attempts + 1,
                last_attempt_at = $4::timestamptz, last_status_code = $5::int, last_error = $6::varchar, updated_at = now()
          WHERE id = $1
         RETURNING tenant_id, attempt_count, status),
       attempt AS (
         INSERT INTO notifications.webhook_delivery_attempts
           (id, delivery_id, tenant_id, attempt_number, started_at, duration_ms, status_code, outcome, error, response_excerpt)
         SELECT gen_random_uuid(), $1, tenant_id, attempt_count, $7, $8, $5::int, $9::varchar, $6::varchar, $10 FROM delivery),
       endpoint AS (
         UPDATE notifications.webhook_endpoints SET last_success_at = $4::timestamptz, failing_since = NULL
          -- SKIP LOCKED: a success never waits for the endpoint row while holding its delivery row,
          -- so it cannot deadlock with a disable or a failure being recorded (the next success records health)
          WHERE id = (SELECT id FROM notifications.webhook_endpoints WHERE id = $11 FOR UPDATE SKIP LOCKED)
            AND $9::varchar = 'SUCCEEDED'
            AND (failing_since IS NOT NULL OR last_success_at IS NULL OR last_success_at < $4::timestamptz - interval '1 second'))
       SELECT status FROM delivery`,
      [
        row.id,
        status,
        nextAt,
        now,
        statusCode,
        error,
        startedAt,
        sent.durationMs,
        succeeded ? 'SUCCEEDED' : 'FAILED',
        sent.responseExcerpt,
        row.endpoint_id,
      ],
    );
    // Still pending after our update means it was ours and is due again.
    return { decision, nextAt: written?.status === 'PENDING' ? nextAt : null };
  }

  /** After a failure: 410 or a streak longer than the limit disables the endpoint, with the reason kept. */
  private async updateEndpointHealth(
    manager: EntityManager,
    endpointId: string,
    decision: Decision,
    now: Date,
    statusCode: number | null,
  ) {
    const [endpoint]: Array<{ status: string; failing_since: Date }> = updatedRows(
      await manager.query(
        `UPDATE notifications.webhook_endpoints SET failing_since = COALESCE(failing_since, $2) WHERE id = $1
         RETURNING status, failing_since`,
        [endpointId, now],
      ),
    );
    if (!endpoint || endpoint.status !== 'ACTIVE') return;
    let reason: string | undefined;
    if (decision.kind === 'endpoint_gone') {
      reason = `the receiver answered ${statusCode ?? 410} Gone`;
    } else if (shouldDisableEndpoint(endpoint.failing_since, now, this.config.WEBHOOK_DISABLE_AFTER_HOURS)) {
      reason = `failing without a success since ${endpoint.failing_since.toISOString()} (limit ${this.config.WEBHOOK_DISABLE_AFTER_HOURS} h)`;
    }
    if (!reason) return;
    this.logger.warn(`Disabling webhook endpoint ${endpointId}: ${reason}`);
    await manager.query(
      `UPDATE notifications.webhook_endpoints SET status = 'DISABLED', disabled_reason = $2, disabled_at = $3, updated_at = $3
        WHERE id = $1 AND status = 'ACTIVE'`,
      [endpointId, reason, now],
    );
    await manager.query(
      `UPDATE notifications.webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL, last_error = $2, updated_at = now()
        WHERE endpoint_id = $1 AND status = 'PENDING'`,
      [endpointId, `endpoint disabled: ${reason}`.slice(0, ERROR_LENGTH)],
    );
  }

  private observe(decision: Decision, sent: SentAttempt, row: DeliveryRow): void {
    const outcome = decision.kind === 'retry' ? 'retry_scheduled' : decision.kind;
    this.metrics.deliveries.inc({ outcome });
    this.metrics.attemptDuration.observe({ outcome }, sent.durationMs / 1000);
    if (decision.kind === 'succeeded') {
      this.metrics.eventToDelivery.observe((Date.now() - row.event_occurred_at.getTime()) / 1000);
    }
  }
}

const statusCodeOf = (sent: SentAttempt) => (sent.result.kind === 'response' ? sent.result.statusCode : null);

/** UPDATE … RETURNING answers [rows, count] through TypeORM's postgres driver. */
function updatedRows<T>(result: unknown): T[] {
  return Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as T[]) : [];
}
