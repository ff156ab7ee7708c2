import { EndpointStatus } from '../statuses';

/**
 * Whether deliveries may go to the endpoint: active and not deleted. The fan-out's statement
 * holds the same rule in SQL when it picks the endpoints of an event.
 */
export function receivesDeliveries(endpoint: { status: EndpointStatus; deletedAt: Date | null }): boolean {
  return endpoint.status === EndpointStatus.Active && !endpoint.deletedAt;
}
