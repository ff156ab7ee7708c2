import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Span, SpanKind, SpanStatusCode } from './trace-context';

const SPAN = Symbol('fincore.http.span');
type TracedRequest = FastifyRequest & { [SPAN]?: Span };

/**
 * One SERVER span per HTTP request, with the attributes of OpenTelemetry's HTTP conventions, from Fastify's own hooks: the span is the active context for
 * everything the request does (so the unit of work can store it with its events), and a caller's
 * `traceparent` makes it a child of the caller's trace. Added only while tracing is on.
 */
export function traceHttpRequests(fastify: FastifyInstance, options: { skip: RegExp }): void {
  const tracer = trace.getTracer('fincore');
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (options.skip.test(request.url)) return done();
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(
      request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.path': request.url.split('?')[0],
          'url.scheme': request.protocol,
          'client.address': request.ip,
          'user_agent.original': request.headers['user-agent'],
          'fincore.request_id': request.id,
        },
      },
      parent,
    );
    (request as TracedRequest)[SPAN] = span;
    context.with(trace.setSpan(parent, span), done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    end(request as TracedRequest, reply.statusCode);
    done();
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    end(request as TracedRequest, undefined);
    done();
  });
}

function end(request: TracedRequest, statusCode: number | undefined): void {
  const span = request[SPAN];
  if (!span) return;
  request[SPAN] = undefined;
  const route = request.routeOptions?.url;
  if (route) {
    span.updateName(`${request.method} ${route}`);
    span.setAttribute('http.route', route);
  }
  if (statusCode === undefined) {
    span.setAttribute('error.type', 'aborted');
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'client aborted the request' });
  } else {
    span.setAttribute('http.response.status_code', statusCode);
    // A 4xx is the caller's mistake, not the server's: only 5xx marks the server span failed.
    if (statusCode >= 500) {
      span.setAttribute('error.type', String(statusCode));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  }
  span.end();
}
