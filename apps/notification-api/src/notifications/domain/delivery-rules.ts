import type { DeliveryStatus } from '../entities/webhook-delivery.entity';
import type { EndpointStatus } from '../entities/webhook-endpoint.entity';

export type RetryRefusal = 'delivery_in_progress' | 'endpoint_disabled';

/**
 * A delivery can be sent again by hand once it has finished, failed or succeeded (a subscriber
 * may have lost a webhook it acknowledged); one still pending is already on its way.
 */
export function retryRefusal(
  delivery: { status: DeliveryStatus },
  endpoint: { status: EndpointStatus; deletedAt: Date | null },
): RetryRefusal | undefined {
  if (delivery.status === 'PENDING') return 'delivery_in_progress';
  if (endpoint.status !== 'ACTIVE' || endpoint.deletedAt) return 'endpoint_disabled';
  return undefined;
}

/** Until when a rotated-out secret still signs deliveries, so receivers can switch without losing any. */
export function previousSecretExpiry(now: Date, graceHours: number): Date | null {
  return graceHours > 0 ? new Date(now.getTime() + graceHours * 3600 * 1000) : null;
}

/** Endpoints per tenant: enough for real integrations, few enough that one event cannot fan out unboundedly. */
export const MAX_ENDPOINTS_PER_TENANT = 20;
