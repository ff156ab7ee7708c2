import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { toEnvelope, UnitOfWork } from '@fincore/events';
import {
  AttemptOutcome,
  AttemptRecord,
  DeliveryForAttempt,
  DeliveryStatus,
  EndpointStatus,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
} from '@fincore/notifications';
import { APP_CONFIG, AppConfig, inSpan, TraceCarrier } from '@fincore/platform';
import { SecretBox, signWebhook } from '@fincore/webhooks';
import { NotifierMetrics } from '../metrics/notifier-metrics';
import { ATTEMPT_SPAN, attemptSpanOptions, recordAttemptResult } from './delivery-tracing';
import {
  Decision,
  decideAfterAttempt,
  isSuccess,
  parseRetrySchedule,
  shouldDisableEndpoint,
} from './domain/retry-policy';
import { SentAttempt, WebhookSender } from './webhook-sender';

/** What the job does next: nothing (finished or not ours), or run again at a time. */
export type NextRun = { kind: 'done' } | { kind: 'run_at'; at: Date };

const DONE: NextRun = { kind: 'done' };
/** Early wake-ups (a reconciler re-add, a clock a little ahead) wait for their time instead of sending. */
const EARLY_TOLERANCE_MS = 25;

/**
 * One attempt of one delivery. PostgreSQL holds the truth: status, attempts, next attempt time;
 * the job is only the trigger, so a lost job loses nothing.
 */
@Injectable()
export class DeliveryService {
  private readonly logger = new Logger(DeliveryService.name);
  private readonly scheduleMs: number[];

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly sender: WebhookSender,
    private readonly secrets: SecretBox,
    private readonly metrics: NotifierMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.scheduleMs = parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE);
  }

  /** `queuedBy`: the trace context the job carries, which the attempt's span continues. */
  async attempt(deliveryId: string, queuedBy?: TraceCarrier): Promise<NextRun> {
    const delivery = await this.deliveries.findForAttempt(deliveryId);
    if (!delivery || delivery.status !== DeliveryStatus.Pending) return DONE;
    if (delivery.nextAttemptAt && delivery.nextAttemptAt.getTime() - Date.now() > EARLY_TOLERANCE_MS) {
      return { kind: 'run_at', at: delivery.nextAttemptAt };
    }
    const { endpoint, event } = delivery;
    if (!event) {
      const reason = `event ${delivery.eventId} is missing from the outbox`;
      this.logger.error(`Delivery ${delivery.id}: ${reason}`);
      await this.deliveries.failPendingDelivery(delivery.id, reason);
      return DONE;
    }
    if (endpoint.status !== EndpointStatus.Active || endpoint.deletedAt) {
      const reason = `endpoint disabled: ${endpoint.disabledReason ?? 'deleted'}`;
      await this.deliveries.failPendingDelivery(delivery.id, reason);
      return DONE;
    }
    const envelope = toEnvelope(event);
    const body = JSON.stringify(envelope);
    const now = new Date();
    // webhook-id = event id: identical on every retry and replay, so receivers can deduplicate.
    const headers = signWebhook({
      webhookId: envelope.id,
      body,
      secrets: this.signingSecrets(endpoint, now),
      timestamp: now,
    });
    return inSpan(
      ATTEMPT_SPAN,
      () => attemptSpanOptions(delivery, queuedBy),
      async (span) => {
        const sent = await this.sender.send({
          url: endpoint.url,
          body,
          headers: { ...headers },
          timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
          policy: { allowPrivateNetworks: this.config.WEBHOOK_ALLOW_PRIVATE_NETWORKS },
        });
        recordAttemptResult(span, sent);
        return this.record(delivery, now, sent);
      },
    );
  }

  /** The current secret, and the previous one while its grace period runs. */
  private signingSecrets(endpoint: DeliveryForAttempt['endpoint'], now: Date): string[] {
    const secrets = [this.secrets.open(endpoint.secretSealed)];
    if (
      endpoint.previousSecretSealed &&
      endpoint.previousSecretExpiresAt &&
      endpoint.previousSecretExpiresAt > now
    ) {
      secrets.push(this.secrets.open(endpoint.previousSecretSealed));
    }
    return secrets;
  }

  /**
   * A success is one statement (attempt row, delivery, endpoint health), atomic on its own: it needs
   * nothing read first. A failure locks the delivery to count its attempts for the retry schedule.
   */
  private async record(delivery: DeliveryForAttempt, startedAt: Date, sent: SentAttempt): Promise<NextRun> {
    const now = new Date();
    const { decision, nextAt } =
      sent.result.kind === 'response' && isSuccess(sent.result.statusCode)
        ? await this.recordSuccess(delivery, startedAt, sent, now)
        : await this.unitOfWork.run(({ manager }) =>
            this.recordFailure(manager, delivery, startedAt, sent, now),
          );
    this.observe(decision, sent, delivery);
    return nextAt ? { kind: 'run_at', at: nextAt } : DONE;
  }

  private async recordSuccess(delivery: DeliveryForAttempt, startedAt: Date, sent: SentAttempt, now: Date) {
    const decision: Decision = { kind: 'succeeded' };
    const attempt = attemptRecord(delivery, startedAt, sent, decision, now);
    const status = await this.deliveries.recordSucceededAttempt(attempt);
    return { decision, nextAt: dueAgainAt(status, attempt) };
  }

  private async recordFailure(
    manager: EntityManager,
    delivery: DeliveryForAttempt,
    startedAt: Date,
    sent: SentAttempt,
    now: Date,
  ) {
    // Lock order endpoint, then delivery: the same as the API's disable/delete, which locks the
    // endpoint and then fails its pending deliveries. The other order could deadlock.
    await this.endpoints.lockForFailedAttempt(manager, delivery.endpointId);
    const cycleAttempts = await this.deliveries.lockForFailedAttempt(manager, delivery.id);
    const decision = decideAfterAttempt({
      result: sent.result,
      cycleAttempts: cycleAttempts + 1,
      scheduleMs: this.scheduleMs,
      now,
    });
    const attempt = attemptRecord(delivery, startedAt, sent, decision, now);
    const status = await this.deliveries.recordFailedAttempt(manager, attempt);
    await this.updateEndpointHealth(manager, delivery.endpointId, decision, now, attempt.statusCode);
    return { decision, nextAt: dueAgainAt(status, attempt) };
  }

  /** After a failure: 410 or a streak longer than the limit disables the endpoint, with the reason kept. */
  private async updateEndpointHealth(
    manager: EntityManager,
    endpointId: string,
    decision: Decision,
    now: Date,
    statusCode: number | null,
  ): Promise<void> {
    const streak = await this.endpoints.markFailing(manager, endpointId, now);
    if (!streak || streak.status !== EndpointStatus.Active) return;
    const limitHours = this.config.WEBHOOK_DISABLE_AFTER_HOURS;
    let reason: string | undefined;
    if (decision.kind === 'endpoint_gone') {
      reason = `the receiver answered ${statusCode ?? 410} Gone`;
    } else if (shouldDisableEndpoint(streak.failingSince, now, limitHours)) {
      reason = `failing without a success since ${streak.failingSince.toISOString()} (limit ${limitHours} h)`;
    }
    if (!reason) return;
    this.logger.warn(`Disabling webhook endpoint ${endpointId}: ${reason}`);
    await this.endpoints.disableIfActive(manager, endpointId, reason, now);
    await this.deliveries.failPendingOfEndpoint(manager, endpointId, `endpoint disabled: ${reason}`);
  }

  private observe(decision: Decision, sent: SentAttempt, delivery: DeliveryForAttempt): void {
    const outcome = decision.kind === 'retry' ? 'retry_scheduled' : decision.kind;
    this.metrics.deliveries.inc({ outcome });
    this.metrics.attemptDuration.observe({ outcome }, sent.durationMs / 1000);
    if (decision.kind === 'succeeded') {
      this.metrics.eventToDelivery.observe((Date.now() - delivery.eventOccurredAt.getTime()) / 1000);
    }
  }
}

/** What an attempt writes: the attempt row, and the state the delivery moves to if still pending. */
function attemptRecord(
  delivery: DeliveryForAttempt,
  startedAt: Date,
  sent: SentAttempt,
  decision: Decision,
  now: Date,
): AttemptRecord {
  const statusCode = sent.result.kind === 'response' ? sent.result.statusCode : null;
  const succeeded = decision.kind === 'succeeded';
  return {
    deliveryId: delivery.id,
    endpointId: delivery.endpointId,
    startedAt,
    finishedAt: now,
    durationMs: sent.durationMs,
    statusCode,
    outcome: succeeded ? AttemptOutcome.Succeeded : AttemptOutcome.Failed,
    error: succeeded ? null : sent.result.kind === 'error' ? sent.result.message : `HTTP ${statusCode}`,
    responseExcerpt: sent.responseExcerpt,
    status: succeeded
      ? DeliveryStatus.Succeeded
      : decision.kind === 'retry'
        ? DeliveryStatus.Pending
        : DeliveryStatus.Failed,
    nextAttemptAt: decision.kind === 'retry' ? new Date(now.getTime() + decision.delayMs) : null,
  };
}

/** Still pending after our update means it was ours and is due again. */
const dueAgainAt = (status: DeliveryStatus | undefined, attempt: AttemptRecord) =>
  status === DeliveryStatus.Pending ? attempt.nextAttemptAt : null;
