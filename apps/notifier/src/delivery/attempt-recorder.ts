import { Inject, Injectable, Logger } from '@nestjs/common';
import { Transaction, UnitOfWork } from '@fincore/events';
import {
  AttemptOutcome,
  AttemptRecord,
  DeliveryForAttempt,
  DeliveryStatus,
  WebhookDeliveryAttemptRepository,
  WebhookEndpointRepository,
} from '@fincore/notifications';
import { APP_CONFIG, AppConfig } from '@fincore/platform';
import { endpointPauseMs } from './domain/endpoint-pacing';
import { Decision, decideAfterAttempt, isSuccess, parseRetrySchedule } from './domain/retry-policy';
import { NotifierMetrics } from '../metrics/notifier-metrics';
import { EndpointHealth } from './endpoint-health';
import { EndpointPacer } from './endpoint-pacer';
import { SucceededAttemptRecorder } from './succeeded-attempt-recorder';
import type { SentAttempt } from './webhook-sender';

/** What an attempt came to: the decision taken, the delivery's status after, and when it is due again. */
export interface RecordedAttempt {
  decision: Decision;
  status: DeliveryStatus | undefined;
  nextAt: Date | null;
}

/**
 * What an answer does to a delivery and its endpoint. A success is one statement (attempt row,
 * delivery, endpoint health), atomic on its own: it needs nothing read first, so successes
 * finishing together share one. A failure locks the endpoint and the delivery to count its
 * attempts for the retry schedule; EndpointHealth then takes the endpoint's part.
 */
@Injectable()
export class AttemptRecorder {
  private readonly logger = new Logger(AttemptRecorder.name);
  private readonly scheduleMs: number[];

  constructor(
    private readonly deliveries: WebhookDeliveryAttemptRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly health: EndpointHealth,
    private readonly unitOfWork: UnitOfWork,
    private readonly successes: SucceededAttemptRecorder,
    private readonly pacer: EndpointPacer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: NotifierMetrics,
  ) {
    this.scheduleMs = parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE);
  }

  async record(delivery: DeliveryForAttempt, startedAt: Date, sent: SentAttempt): Promise<RecordedAttempt> {
    // Before the attempt is recorded: the endpoint's other deliveries stop as soon as can be.
    await this.pauseEndpointIfAsked(delivery, sent, startedAt);
    const now = new Date();
    if (sent.result.kind === 'response' && isSuccess(sent.result.statusCode))
      return this.recordSuccess(delivery, startedAt, sent, now);
    const { disabled, ...recorded } = await this.unitOfWork.run((tx) =>
      this.recordFailure(tx, delivery, startedAt, sent, now),
    );
    // Counted once committed: a rolled-back disable disabled nothing.
    if (disabled) this.metrics.endpointsDisabled.inc({ reason: disabled });
    return recorded;
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
    await this.health.afterSuccess(delivery, now);
    return { decision, nextAt: dueAgainAt(status, attempt), status };
  }

  private async recordFailure(
    tx: Transaction,
    delivery: DeliveryForAttempt,
    startedAt: Date,
    sent: SentAttempt,
    now: Date,
  ) {
    // Lock order endpoint, then delivery: the same as the API's disable/delete, which locks the
    // endpoint and then fails its pending deliveries. The other order could deadlock.
    await this.endpoints.lockForFailedAttempt(tx.manager, delivery.endpointId);
    const locked = await this.deliveries.lockForFailedAttempt(tx.manager, delivery.id);
    const decision = decideAfterAttempt({
      result: sent.result,
      cycleAttempts: locked.cycleAttempts + 1,
      scheduleMs: this.scheduleMs,
      now,
    });
    const attempt = attemptRecord(delivery, startedAt, sent, decision, now);
    const status = await this.deliveries.recordFailedAttempt(tx.manager, attempt);
    const disabled = await this.health.afterFailure(tx, delivery, decision, attempt, locked);
    return { decision, nextAt: dueAgainAt(status, attempt), status, disabled };
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
    requestHeaders: sent.requestHeaders,
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
