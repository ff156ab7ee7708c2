import { Injectable, Logger } from '@nestjs/common';
import type { OutboxEventEntity } from '@fincore/events';
import {
  DeliveryForAttempt,
  DeliveryStatus,
  receivesDeliveries,
  WebhookDeliveryAttemptRepository,
} from '@fincore/notifications';
import { recheckBehindHead } from './domain/ordering';
import { EndpointPacer } from './endpoint-pacer';
import { DONE, NextRun } from './next-run';

/** Early wake-ups (a reconciler re-add, a clock a little ahead) wait for their time instead of sending. */
const EARLY_TOLERANCE_MS = 25;

/** The delivery may be sent now, with its event. */
export interface Admitted {
  kind: 'send';
  event: OutboxEventEntity;
}

/**
 * Whether a delivery read for an attempt may be sent now: still pending and due, its event still
 * in the outbox and its endpoint still receiving (otherwise it fails for good), first in its chain
 * of an ordered endpoint, and given a slot by the endpoint's pacing. Waiting is no attempt: the
 * delivery is untouched and its job sleeps until the time answered.
 */
@Injectable()
export class AttemptAdmission {
  private readonly logger = new Logger(AttemptAdmission.name);

  constructor(
    private readonly deliveries: WebhookDeliveryAttemptRepository,
    private readonly pacer: EndpointPacer,
  ) {}

  async admit(delivery: DeliveryForAttempt): Promise<Admitted | NextRun> {
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
    const pace = await this.pacer.pace(
      { id: delivery.endpointId, rateLimit: endpoint.rateLimit, pausedForMs: delivery.endpointPausedForMs },
      delivery.id,
    );
    if (pace.kind === 'wait') return { kind: 'run_at', at: pace.at };
    return { kind: 'send', event };
  }
}
