import { DeliveryStatus, EndpointStatus, receivesDeliveries } from '@fincore/notifications';

export type RetryRefusal = 'delivery_in_progress' | 'endpoint_disabled';

/**
 * A delivery can be sent again by hand once it has finished, failed or succeeded (a subscriber
 * may have lost a webhook it acknowledged); one still pending is already on its way.
 */
export function retryRefusal(
  delivery: { status: DeliveryStatus },
  endpoint: { status: EndpointStatus; deletedAt: Date | null },
): RetryRefusal | undefined {
  if (delivery.status === DeliveryStatus.Pending) return 'delivery_in_progress';
  if (!receivesDeliveries(endpoint)) return 'endpoint_disabled';
  return undefined;
}
