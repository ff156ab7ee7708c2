import { Inject, Injectable, Logger } from '@nestjs/common';
import { isOperationalEventType, Transaction, UnitOfWork } from '@fincore/events';
import {
  AttemptRecord,
  DeliveryForAttempt,
  DeliveryStatus,
  EndpointStatus,
  LockedForFailure,
  WebhookDeliveryAdminRepository,
  WebhookEndpointRepository,
} from '@fincore/notifications';
import { APP_CONFIG, AppConfig } from '@fincore/platform';
import { healthAfterFailure } from './domain/endpoint-health';
import type { Decision } from './domain/retry-policy';
import type { DisableReason } from '../metrics/notifier-metrics';

/**
 * An endpoint's health after an attempt, and the operational events it gives rise to. Each event
 * is written in the transaction that records its transition (the endpoint row says whether it
 * happened), so it is emitted once however many attempts see it.
 */
@Injectable()
export class EndpointHealth {
  private readonly logger = new Logger(EndpointHealth.name);

  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly admin: WebhookDeliveryAdminRepository,
    private readonly unitOfWork: UnitOfWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Inside the failed attempt's transaction, the endpoint locked: counts the streak; a 410 or a
   * streak over the limit disables the endpoint (WEBHOOK_ENDPOINT_DISABLED), one of half the limit
   * is reported (WEBHOOK_ENDPOINT_FAILING); a delivery whose schedule ran out is reported
   * (WEBHOOK_DELIVERY_EXHAUSTED). Answers why it disabled the endpoint, if it did.
   */
  async afterFailure(
    tx: Transaction,
    delivery: DeliveryForAttempt,
    decision: Decision,
    attempt: AttemptRecord,
    locked: LockedForFailure,
  ): Promise<DisableReason | undefined> {
    const tenantCode = delivery.event?.tenantCode;
    if (decision.kind === 'failed' && locked.status === DeliveryStatus.Pending && tenantCode) {
      await this.reportExhausted(tx, tenantCode, delivery, attempt, locked.attemptCount + 1);
    }
    const now = attempt.finishedAt;
    const streak = await this.endpoints.markFailing(tx.manager, delivery.endpointId, now);
    if (!streak || streak.status !== EndpointStatus.Active) return undefined;
    const change = healthAfterFailure({
      gone: decision.kind === 'endpoint_gone',
      statusCode: attempt.statusCode,
      failingSince: streak.failingSince,
      failingNotified: streak.failingNotifiedAt !== null,
      now,
      disableAfterHours: this.config.WEBHOOK_DISABLE_AFTER_HOURS,
    });
    const about = { endpointId: delivery.endpointId, url: delivery.endpoint.url };
    if (change.kind === 'disable') {
      this.logger.warn(`Disabling webhook endpoint ${delivery.endpointId}: ${change.reason}`);
      const disabled = await this.endpoints.disableIfActive(
        tx.manager,
        delivery.endpointId,
        change.reason,
        now,
      );
      await this.admin.failPendingOfEndpoint(
        tx.manager,
        delivery.endpointId,
        `endpoint disabled: ${change.reason}`,
      );
      if (!disabled) return undefined;
      if (tenantCode) {
        await tx.emit('WEBHOOK_ENDPOINT_DISABLED', tenantCode, {
          ...about,
          reason: change.reason,
          disabledAt: now.toISOString(),
        });
      }
      return change.cause;
    }
    if (change.kind === 'warn_failing' && tenantCode) {
      if (await this.endpoints.markFailingNotified(tx.manager, delivery.endpointId, now)) {
        await tx.emit('WEBHOOK_ENDPOINT_FAILING', tenantCode, {
          ...about,
          failingSince: streak.failingSince.toISOString(),
          disablesAt: change.disablesAt.toISOString(),
          lastError: attempt.error,
        });
      }
    }
    return undefined;
  }

  /** After a success of an endpoint reported as failing: WEBHOOK_ENDPOINT_RECOVERED, once. */
  async afterSuccess(delivery: DeliveryForAttempt, now: Date): Promise<void> {
    const tenantCode = delivery.event?.tenantCode;
    if (!delivery.endpoint.failingNotifiedAt || !tenantCode) return;
    await this.unitOfWork.run(async (tx) => {
      const notifiedAt = await this.endpoints.clearFailingNotified(tx.manager, delivery.endpointId);
      if (!notifiedAt) return;
      await tx.emit('WEBHOOK_ENDPOINT_RECOVERED', tenantCode, {
        endpointId: delivery.endpointId,
        url: delivery.endpoint.url,
        failingNotifiedAt: notifiedAt.toISOString(),
        recoveredAt: now.toISOString(),
      });
    });
  }

  /**
   * Not for a delivery of an operational event: two failing endpoints would otherwise report each
   * other's exhausted reports for as long as both are enabled.
   */
  private async reportExhausted(
    tx: Transaction,
    tenantCode: string,
    delivery: DeliveryForAttempt,
    attempt: AttemptRecord,
    attemptCount: number,
  ): Promise<void> {
    const type = delivery.event?.type ?? '';
    if (isOperationalEventType(type) || attempt.status !== DeliveryStatus.Failed) return;
    await tx.emit('WEBHOOK_DELIVERY_EXHAUSTED', tenantCode, {
      endpointId: delivery.endpointId,
      url: delivery.endpoint.url,
      deliveryId: delivery.id,
      eventId: delivery.eventId,
      notificationTypeCode: type,
      attemptCount,
      lastStatusCode: attempt.statusCode,
      lastError: attempt.error,
    });
  }
}
