import { DeliveryStatus, EndpointStatus, receivesDeliveries } from '@fincore/notifications';

export type RetryRefusal = 'delivery_in_progress' | 'endpoint_disabled';

/**
 * A delivery can be sent again by hand once it has finished, failed or succeeded (a subscriber
 * may have lost a webhook it acknowledged), and while it waits for an attempt scheduled later (a
 * subscriber who fixed their receiver need not wait for the schedule). One that is due now, or
 * has no time (never attempted, or ended), may be under way in a worker: sending it again would
 * race that attempt.
 */
export function retryRefusal(
  delivery: { status: DeliveryStatus; nextAttemptAt: Date | null },
  endpoint: { status: EndpointStatus; deletedAt: Date | null },
  now: Date,
): RetryRefusal | undefined {
  if (delivery.status === DeliveryStatus.Pending && !waitsForLaterAttempt(delivery.nextAttemptAt, now))
    return 'delivery_in_progress';
  if (!receivesDeliveries(endpoint)) return 'endpoint_disabled';
  return undefined;
}

function waitsForLaterAttempt(nextAttemptAt: Date | null, now: Date): boolean {
  return nextAttemptAt !== null && nextAttemptAt.getTime() > now.getTime();
}
