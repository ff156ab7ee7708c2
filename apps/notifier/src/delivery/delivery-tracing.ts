import type { DeliveryForAttempt } from '@fincore/notifications';
import {
  deserializeTraceContext,
  linkToCarrier,
  Span,
  SpanKind,
  SpanOptions,
  SpanStatusCode,
  TraceCarrier,
  traceIdOf,
} from '@fincore/platform';
import { isSuccess } from './domain/retry-policy';
import type { SentAttempt } from './webhook-sender';

export const ATTEMPT_SPAN = 'POST webhook';

/**
 * The span of one delivery attempt. It continues the trace of whoever queued the job (the
 * fan-out, or a replay request); a job that carries none (re-added by the reconciler) continues
 * the event's own trace, stored with it in the outbox. When the two differ, the span links to the
 * event's trace, so a replay still leads back to the request that caused the event.
 */
export function attemptSpanOptions(
  delivery: DeliveryForAttempt,
  queuedBy: TraceCarrier | undefined,
): SpanOptions {
  const original = deserializeTraceContext(delivery.event?.traceContext);
  const parent = queuedBy ?? original;
  const link =
    original && parent && traceIdOf(parent) !== traceIdOf(original)
      ? linkToCarrier(original, { 'fincore.link': 'event_origin' })
      : undefined;
  return {
    kind: SpanKind.CLIENT,
    parent,
    links: [link],
    attributes: {
      'http.request.method': 'POST',
      ...destination(delivery.endpoint.url),
      'fincore.delivery.id': delivery.id,
      'fincore.endpoint.id': delivery.endpointId,
      'fincore.event.id': delivery.eventId,
      'fincore.event.type': delivery.event?.type,
    },
  };
}

/** What came back: the status code, or the error; a non-2xx answer marks the span failed. */
export function recordAttemptResult(span: Span, sent: SentAttempt): void {
  if (!span.isRecording()) return;
  if (sent.result.kind === 'response') {
    span.setAttribute('http.response.status_code', sent.result.statusCode);
    if (isSuccess(sent.result.statusCode)) return;
    span.setAttribute('error.type', String(sent.result.statusCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  } else {
    span.setAttribute('error.type', sent.result.message.split(':')[0]);
    span.setStatus({ code: SpanStatusCode.ERROR, message: sent.result.message });
  }
}

/** Host and port only: a query string or user info in a subscriber's URL may hold a secret. */
function destination(url: string): Record<string, string | number> {
  try {
    const u = new URL(url);
    return {
      'server.address': u.hostname,
      'server.port': Number(u.port || (u.protocol === 'https:' ? 443 : 80)),
      'url.scheme': u.protocol.replace(':', ''),
    };
  } catch {
    return {};
  }
}
