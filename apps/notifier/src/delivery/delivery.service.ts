import { Inject, Injectable, Logger } from '@nestjs/common';
import { DeliveryForAttempt, DeliveryStatus, WebhookDeliveryAttemptRepository } from '@fincore/notifications';
import { APP_CONFIG, AppConfig, inSpan, TraceCarrier } from '@fincore/platform';
import { TenantPriority } from '../fairness/tenant-priority';
import { NotifierMetrics } from '../metrics/notifier-metrics';
import { AttemptAdmission } from './attempt-admission';
import { AttemptRecorder, RecordedAttempt } from './attempt-recorder';
import { ATTEMPT_SPAN, attemptSpanOptions, recordAttemptResult } from './delivery-tracing';
import { DeliverySigner } from './delivery-signer';
import { failedAttemptLine } from './domain/failed-attempt-line';
import { DONE, NextRun } from './next-run';
import { SentAttempt, WebhookSender } from './webhook-sender';

/**
 * One attempt of one delivery: admitted, signed, sent, recorded. PostgreSQL holds the truth:
 * status, attempts, next attempt time; the job is only the trigger, so a lost job loses nothing.
 */
@Injectable()
export class DeliveryService {
  private readonly logger = new Logger(DeliveryService.name);

  constructor(
    private readonly deliveries: WebhookDeliveryAttemptRepository,
    private readonly admission: AttemptAdmission,
    private readonly signer: DeliverySigner,
    private readonly sender: WebhookSender,
    private readonly recorder: AttemptRecorder,
    private readonly metrics: NotifierMetrics,
    private readonly priority: TenantPriority,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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
    const admitted = await this.admission.admit(delivery);
    if (admitted.kind !== 'send') return admitted;
    const now = new Date();
    const { body, headers } = this.signer.sign(delivery, admitted.event, now);
    return inSpan(
      ATTEMPT_SPAN,
      () => attemptSpanOptions(delivery, queuedBy),
      async (span) => {
        const sent = await this.sender.send({
          url: delivery.endpoint.url,
          body,
          headers,
          timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
          policy: { allowPrivateNetworks: this.config.WEBHOOK_ALLOW_PRIVATE_NETWORKS },
        });
        recordAttemptResult(span, sent);
        return this.next(delivery, sent, await this.recorder.record(delivery, now, sent));
      },
    );
  }

  private async next(
    delivery: DeliveryForAttempt,
    sent: SentAttempt,
    { decision, status, nextAt }: RecordedAttempt,
  ): Promise<NextRun> {
    this.observe(decision, sent, delivery);
    const line = failedAttemptLine({
      deliveryId: delivery.id,
      endpointId: delivery.endpointId,
      result: sent.result,
      decision,
      nextAt,
    });
    if (line) this.logger[line.level](line.message);
    if (status === DeliveryStatus.Succeeded || status === DeliveryStatus.Failed)
      this.priority.finished(delivery.tenantId);
    if (nextAt) return { kind: 'run_at', at: nextAt };
    // Succeeded or failed for good: the chain moves on (a failure leaves a gap in the sequence).
    const next = delivery.chain && (await this.deliveries.pendingInChain(delivery.chain, 'after'));
    return next ? { kind: 'done', wake: next } : DONE;
  }

  private observe(
    decision: RecordedAttempt['decision'],
    sent: SentAttempt,
    delivery: DeliveryForAttempt,
  ): void {
    const outcome = decision.kind === 'retry' ? 'retry_scheduled' : decision.kind;
    this.metrics.deliveries.inc({ outcome });
    this.metrics.attemptDuration.observe({ outcome }, sent.durationMs / 1000);
    if (decision.kind === 'succeeded') {
      this.metrics.eventToDelivery.observe((Date.now() - delivery.eventOccurredAt.getTime()) / 1000);
    }
  }
}
