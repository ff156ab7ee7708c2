import type { DeliveryFilter } from './route';
import type { paths } from './schema';

type Query = NonNullable<paths['/api/v1/webhook-deliveries']['get']['parameters']['query']>;

export const DELIVERIES_PAGE_SIZE = 20;

/** The API's query for one page of the filtered deliveries: the cursor goes with the same filter. */
export function deliveriesQueryOf(filter: DeliveryFilter, cursor?: string): Query {
  const { status, type, endpointId, eventId, since, until } = filter;
  return {
    limit: String(DELIVERIES_PAGE_SIZE),
    ...(status ? { status } : {}),
    // Whatever the catalog lists now, beyond the enum of the document the portal was built from.
    ...(type ? { notificationTypeCode: type as Query['notificationTypeCode'] } : {}),
    ...(endpointId ? { endpointId } : {}),
    ...(eventId ? { eventId } : {}),
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
    ...(cursor ? { cursor } : {}),
  };
}
