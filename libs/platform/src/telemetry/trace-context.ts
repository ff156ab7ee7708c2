import {
  Attributes,
  context,
  Context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  Link,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { W3CTraceContextPropagator } from '@opentelemetry/core';
import { tracingActive } from './tracing';

/**
 * The W3C trace context of a span, as it travels where no async context reaches: an outbox row,
 * a job's data, a webhook's headers. Only `traceparent` and `tracestate`, never baggage, so
 * nothing of a caller's baggage reaches a subscriber.
 */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

let propagator: W3CTraceContextPropagator | undefined;
/** Loaded on first use: a process that never meets a trace context (tracing off) never loads it. */
function w3c(): W3CTraceContextPropagator {
  if (!propagator) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const core = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
    propagator = new core.W3CTraceContextPropagator();
  }
  return propagator;
}

const tracer = () => trace.getTracer('fincore');
/** Handed to span callbacks while tracing is off: every call on it is a no-op. */
const NO_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** The trace context of `ctx` (the active one by default); undefined when it holds no valid span, e.g. tracing off. */
export function traceCarrier(ctx: Context = context.active()): TraceCarrier | undefined {
  const spanContext = trace.getSpanContext(ctx);
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  const carrier: Record<string, string> = {};
  w3c().inject(ctx, carrier, defaultTextMapSetter);
  if (!carrier.traceparent) return undefined;
  return carrier.tracestate
    ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate }
    : { traceparent: carrier.traceparent };
}

/** The carrier as one text value (events.outbox.trace_context); null when there is no trace. */
export function serializeTraceContext(ctx: Context = context.active()): string | null {
  const carrier = traceCarrier(ctx);
  return carrier ? JSON.stringify(carrier) : null;
}

/** Reads what serializeTraceContext wrote; anything else (null, garbage, an invalid traceparent) is no trace. */
export function deserializeTraceContext(stored: string | null | undefined): TraceCarrier | undefined {
  if (!stored) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return undefined;
  }
  return asTraceCarrier(parsed);
}

/** The carrier in job data or a row, checked: only a valid traceparent makes one. */
export function asTraceCarrier(value: unknown): TraceCarrier | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { traceparent, tracestate } = value as Record<string, unknown>;
  if (typeof traceparent !== 'string') return undefined;
  const ctx = w3c().extract(
    ROOT_CONTEXT,
    typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent },
    defaultTextMapGetter,
  );
  // Re-injected, so what is kept is normalised and a malformed tracestate is dropped.
  return traceCarrier(ctx);
}

/** A context whose parent is the carrier's span (remote); the root context without one. */
export function contextFromCarrier(carrier: TraceCarrier | undefined): Context {
  return carrier ? w3c().extract(ROOT_CONTEXT, carrier, defaultTextMapGetter) : ROOT_CONTEXT;
}

/** A span link to the carrier's span, for work that continues one trace and belongs to another too. */
export function linkToCarrier(carrier: TraceCarrier | undefined, attributes?: Attributes): Link | undefined {
  const spanContext = carrier && trace.getSpanContext(contextFromCarrier(carrier));
  return spanContext && isSpanContextValid(spanContext) ? { context: spanContext, attributes } : undefined;
}

/** The trace id of a carrier, e.g. to tell whether two carriers belong to one trace. */
export function traceIdOf(carrier: TraceCarrier | undefined): string | undefined {
  return carrier && trace.getSpanContext(contextFromCarrier(carrier))?.traceId;
}

/** Headers of an outgoing request made in the active span: `traceparent` (and `tracestate`), or none. */
export function traceHeaders(): Record<string, string> {
  return { ...traceCarrier() };
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Where the trace comes from when no async context carries it: a stored or queued carrier. Unset: the active span. */
  parent?: TraceCarrier;
  links?: Array<Link | undefined>;
}

/** Options, or a function making them: called only when a span is made, so tracing off costs nothing. */
export type SpanOptionsSource = SpanOptions | (() => SpanOptions);

/**
 * Runs `work` inside a new active span and ends it, marking it failed when `work` throws. While
 * tracing is off no span is made at all: `work` gets a no-op span and runs as it is.
 */
export function inSpan<T>(
  name: string,
  options: SpanOptionsSource,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const opened = open(name, options);
  // Not async itself: with tracing off the work's own promise is all there is.
  return opened ? runInSpan(opened.span, opened.parent, work) : work(NO_SPAN);
}

async function runInSpan<T>(span: Span, parent: Context, work: (span: Span) => Promise<T>): Promise<T> {
  try {
    const result = await context.with(trace.setSpan(parent, span), () => work(span));
    endSpan(span);
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

/**
 * A span the caller ends itself, for work that is not one call, e.g. one span per job of a bulk
 * add. Undefined while tracing is off.
 */
export function startSpan(name: string, options: SpanOptionsSource): Span | undefined {
  return open(name, options)?.span;
}

/** A new span and the context it was made in (the carrier's, or the active one); none while tracing is off. */
function open(name: string, options: SpanOptionsSource): { span: Span; parent: Context } | undefined {
  if (!tracingActive()) return undefined;
  const resolved = typeof options === 'function' ? options() : options;
  const parent = resolved.parent ? contextFromCarrier(resolved.parent) : context.active();
  const span = tracer().startSpan(
    name,
    {
      kind: resolved.kind ?? SpanKind.INTERNAL,
      attributes: resolved.attributes,
      links: resolved.links?.filter((l): l is Link => l !== undefined),
    },
    parent,
  );
  return { span, parent };
}

/** The carrier that makes `span` the parent of work elsewhere (a job, a request). */
export function carrierOf(span: Span | undefined): TraceCarrier | undefined {
  return span && traceCarrier(trace.setSpan(ROOT_CONTEXT, span));
}

/** Ends the span, marked failed when there is an error. */
export function endSpan(span: Span | undefined, error?: unknown): void {
  if (!span) return;
  if (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
  }
  span.end();
}

export { SpanKind, SpanStatusCode };
export type { Span };
