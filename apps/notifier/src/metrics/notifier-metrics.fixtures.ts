import type { NotifierMetrics } from './notifier-metrics';

/** NotifierMetrics for unit specs: every counter and histogram a set of mocks. */
export function newNotifierMetricsDouble() {
  const metric = () => ({ inc: jest.fn(), observe: jest.fn() });
  const double = {
    deliveries: metric(),
    attemptDuration: metric(),
    eventToDelivery: metric(),
    fannedOut: metric(),
    retentionDeleted: metric(),
  };
  return double as typeof double & NotifierMetrics;
}
