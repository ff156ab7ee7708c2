import { Context, createTraceState, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';

export const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
export const SPAN_ID = '00f067aa0ba902b7';
export const TRACEPARENT = `00-${TRACE_ID}-${SPAN_ID}-01`;

/** A context whose active span is a sampled span of TRACE_ID, as a request's would be. */
export function contextWithSpan(options: { tracestate?: string; sampled?: boolean } = {}): Context {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: TRACE_ID,
    spanId: SPAN_ID,
    traceFlags: options.sampled === false ? TraceFlags.NONE : TraceFlags.SAMPLED,
    traceState: options.tracestate ? createTraceState(options.tracestate) : undefined,
  });
}
