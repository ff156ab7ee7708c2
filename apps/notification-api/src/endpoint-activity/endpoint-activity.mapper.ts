import type { DeliveryHour, EndpointHealthCounts } from '@fincore/notifications';
import { type StatsWindow, totalOf } from './domain/stats-window';

const HOUR_MS = 3_600_000;

export function mapEndpointDeliveryStats(
  endpointId: string,
  window: StatsWindow,
  hours: readonly DeliveryHour[],
) {
  const first = hours[0]?.hour;
  const last = hours[hours.length - 1]?.hour;
  const counts = hours.map((h) => ({ succeeded: h.succeeded, failed: h.failed, pending: h.pending }));
  return {
    endpointId,
    window,
    from: first ? first.toISOString() : new Date().toISOString(),
    until: last ? new Date(last.getTime() + HOUR_MS).toISOString() : new Date().toISOString(),
    total: totalOf(counts),
    hours: hours.map((h, i) => ({ hour: h.hour.toISOString(), ...counts[i] })),
  };
}

export function mapEndpointHealthList(from: Date, rows: readonly EndpointHealthCounts[]) {
  return {
    window: '24h' as const,
    from: from.toISOString(),
    until: new Date(from.getTime() + 24 * HOUR_MS).toISOString(),
    items: rows.map((r) => ({
      endpointId: r.endpointId,
      deliveries: { succeeded: r.succeeded, failed: r.failed, pending: r.pending },
      p95DurationMs: r.p95DurationMs,
    })),
  };
}
