import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { UnitOfWork } from '@fincore/events';
import {
  AttemptOutcome,
  AttemptRecord,
  DeliveryForAttempt,
  DeliveryStatus,
  EndpointStatus,
  receivesDeliveries,
  WebhookDeliveryAdminRepository,
  WebhookDeliveryAttemptRepository,
  WebhookEndpointRepository,
} from '@fincore/notifications';
import { APP_CONFIG, AppConfig, inSpan, TraceCarrier } from '@fincore/platform';
import { SecretBox, signWebhook } from '@fincore/webhooks';
import { TenantPriority } from '../fairness/tenant-priority';
import { NotifierMetrics } from '../metrics/notifier-metrics';
import { endpointPauseMs } from './domain/endpoint-pacing';
import { recheckBehindHead, webhookEnvelope } from './domain/ordering';
import { ATTEMPT_SPAN, attemptSpanOptions, recordAttemptResult } from './delivery-tracing';
import {
  Decision,
  decideAfterAttempt,
  isSuccess,
  parseRetrySchedule,
  shouldDisableEndpoint,
} from './domain/retry-policy';
import { EndpointPacer } from './endpoint-pacer';
import { DONE, NextRun } from './next-run';
import { SucceededAttemptRecorder } from './succeeded-attempt-recorder';
import { SentAttempt, WebhookSender } from './webhook-sender';

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
    private readonly deliveries: WebhookDeliveryAttemptRepository,
    private readonly admin: WebhookDeliveryAdminRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly sender: WebhookSender,
    private readonly secrets: SecretBox,
    private readonly metrics: NotifierMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pacer: EndpointPacer,
    private readonly successes: SucceededAttemptRecorder,
    private readonly priority: TenantPriority,
  ) {
    this.scheduleMs = parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE);
  }

  /** `queuedBy`: the trace context the job carries, which the attempt's span continues. */
  async attempt(deliveryId: string, queuedBy?: TraceCarrier): Promise<NextRun> {
    const delivery = await this.deliveries.findForAttempt(deliveryId);
    if (!delivery) return DONE;
    return this.attemptRead(delivery, queuedBy);
  }

  /**
   * The attempt of a delivery read just before with what it needs (the fan-out's statement answers
   * it for the deliveries it creates); without `queuedBy`, the span continues the current trace.
   */
  async attemptRead(delivery: DeliveryForAttempt, queuedBy?: TraceCarrier): Promise<NextRun> {
    if (delivery.status !== DeliveryStatus.Pending) return DONE;
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
    if (!receivesDeliveries(endpoint)) {
      const reason = `endpoint disabled: ${endpoint.disabledReason ?? 'deleted'}`;
      await this.deliveries.failPendingDelivery(delivery.id, reason);
      return DONE;
    }
    if (delivery.chain) {
      // Ordered endpoint: an earlier delivery about the same subject still pending goes first.
      const head = await this.deliveries.pendingInChain(delivery.chain, 'before');
      if (head) return { kind: 'run_at', at: recheckBehindHead(head.nextAttemptAt, new Date()) };
    }
    // Last check before sending, so the slot is taken as close as can be to the request going out.
    // Waiting for a slot is no attempt: the job sleeps until then and the delivery is untouched.
    const pace = await this.pacer.pace(
      { id: delivery.endpointId, rateLimit: endpoint.rateLimit, pausedForMs: delivery.endpointPausedForMs },
      delivery.id,
    );
    if (pace.kind === 'wait') return { kind: 'run_at', at: pace.at };
    const envelope = webhookEnvelope(event, delivery.chain?.sequence ?? null);
    const body = JSON.stringify(envelope);
    const now = new Date();
    // webhook-id = event id: identical on every retry and replay, so receivers can deduplicate.
    const headers = signWebhook({
      webhookId: envelope.id,
      body,
      timestamp: now,
      ...this.signingKeys(endpoint, now),
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
        // Before the attempt is recorded: the endpoint's other deliveries stop as soon as can be.
        await this.pauseEndpointIfAsked(delivery, sent, now);
        return this.record(delivery, now, sent);
      },
    );
  }

  /**
   * HMAC secrets for v1 and ed25519 keys for v1a, as the endpoint's schemes say: the current one,
   * and the previous one while its grace period runs.
   */
  private signingKeys(endpoint: DeliveryForAttempt['endpoint'], now: Date) {
    const inGrace = !!endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now;
    const open = (current: string | null, previous: string | null) =>
      [current, inGrace ? previous : null].filter((k) => k !== null).map((k) => this.secrets.open(k));
    const schemes = endpoint.signatureSchemes;
    return {
      secrets: schemes.includes('v1') ? open(endpoint.secretSealed, endpoint.previousSecretSealed) : [],
      signingKeys: schemes.includes('v1a')
        ? open(endpoint.signingKeySealed, endpoint.previousSigningKeySealed)
        : [],
    };
  }

  /**
   * A success is one statement (attempt row, delivery, endpoint health), atomic on its own: it needs
   * nothing read first, so successes finishing together share one. A failure locks the delivery to
   * count its attempts for the retry schedule.
   */
  private async record(delivery: DeliveryForAttempt, startedAt: Date, sent: SentAttempt): Promise<NextRun> {
    const now = new Date();
    const { decision, nextAt, status } =
      sent.result.kind === 'response' && isSuccess(sent.result.statusCode)
        ? await this.recordSuccess(delivery, startedAt, sent, now)
        : await this.unitOfWork.run(({ manager }) =>
            this.recordFailure(manager, delivery, startedAt, sent, now),
          );
    this.observe(decision, sent, delivery);
    if (status === DeliveryStatus.Succeeded || status === DeliveryStatus.Failed)
      this.priority.finished(delivery.tenantId);
    if (nextAt) return { kind: 'run_at', at: nextAt };
    // Succeeded or failed for good: the chain moves on (a failure leaves a gap in the sequence).
    const next = delivery.chain && (await this.deliveries.pendingInChain(delivery.chain, 'after'));
    return next ? { kind: 'done', wake: next } : DONE;
  }

  /** A receiver's 429/503 with Retry-After holds back the endpoint's other deliveries too, not others'. */
  private async pauseEndpointIfAsked(delivery: DeliveryForAttempt, sent: SentAttempt, now: Date) {
    const pauseMs = endpointPauseMs(sent.result, now);
    if (pauseMs === undefined) return;
    try {
      await this.pacer.pause(delivery.endpointId, pauseMs);
    } catch (error) {
      // This delivery's own retry still waits for Retry-After; only its siblings may come early.
      this.logger.warn(`Could not pause endpoint ${delivery.endpointId}: ${(error as Error).message}`);
    }
  }

  private async recordSuccess(delivery: DeliveryForAttempt, startedAt: Date, sent: SentAttempt, now: Date) {
    const decision: Decision = { kind: 'succeeded' };
    const attempt = attemptRecord(delivery, startedAt, sent, decision, now);
    const status = await this.successes.record(attempt);
    return { decision, nextAt: dueAgainAt(status, attempt), status };
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
    return { decision, nextAt: dueAgainAt(status, attempt), status };
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
    await this.admin.failPendingOfEndpoint(manager, endpointId, `endpoint disabled: ${reason}`);
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
