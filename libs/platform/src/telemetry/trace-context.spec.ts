import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import * as sut from './trace-context';
import { contextWithSpan, SPAN_ID, TRACE_ID, TRACEPARENT } from '@test/support/fixtures/trace-context';

describe('trace context helpers', () => {
  describe('serializeTraceContext', () => {
    it('writes the traceparent of the span in the context', () => {
      expect(JSON.parse(sut.serializeTraceContext(contextWithSpan())!)).toEqual({ traceparent: TRACEPARENT });
    });

    it('keeps the tracestate beside it', () => {
      const stored = sut.serializeTraceContext(contextWithSpan({ tracestate: 'vendor=abc,other=1' }));
      expect(JSON.parse(stored!)).toEqual({ traceparent: TRACEPARENT, tracestate: 'vendor=abc,other=1' });
    });

    it('keeps an unsampled trace unsampled', () => {
      expect(JSON.parse(sut.serializeTraceContext(contextWithSpan({ sampled: false }))!)).toEqual({
        traceparent: `00-${TRACE_ID}-${SPAN_ID}-00`,
      });
    });

    it('is null without a span, as while tracing is off', () => {
      expect(sut.serializeTraceContext(ROOT_CONTEXT)).toBeNull();
      expect(sut.serializeTraceContext()).toBeNull();
    });
  });

  describe('deserializeTraceContext', () => {
    it('reads back what serializeTraceContext wrote', () => {
      const stored = sut.serializeTraceContext(contextWithSpan({ tracestate: 'vendor=abc' }));
      expect(sut.deserializeTraceContext(stored)).toEqual({
        traceparent: TRACEPARENT,
        tracestate: 'vendor=abc',
      });
    });

    it.each([
      ['null', null],
      ['undefined', undefined],
      ['the empty string', ''],
      ['no JSON', 'not json'],
      ['a JSON string', JSON.stringify(TRACEPARENT)],
      ['no traceparent', JSON.stringify({ tracestate: 'a=b' })],
      ['a traceparent of another type', JSON.stringify({ traceparent: 42 })],
      ['a malformed traceparent', JSON.stringify({ traceparent: '00-xyz-abc-01' })],
      ['an all-zero trace id', JSON.stringify({ traceparent: `00-${'0'.repeat(32)}-${SPAN_ID}-01` })],
      ['an all-zero span id', JSON.stringify({ traceparent: `00-${TRACE_ID}-${'0'.repeat(16)}-01` })],
      ['version ff', JSON.stringify({ traceparent: `ff-${TRACE_ID}-${SPAN_ID}-01` })],
    ])('is no trace for %s', (_what, stored) => {
      expect(sut.deserializeTraceContext(stored)).toBeUndefined();
    });

    it('drops a malformed tracestate and keeps the traceparent', () => {
      const stored = JSON.stringify({ traceparent: TRACEPARENT, tracestate: '=,=,=' });
      expect(sut.deserializeTraceContext(stored)).toEqual({ traceparent: TRACEPARENT });
    });

    it('takes job data with extra fields as just the trace context', () => {
      expect(sut.asTraceCarrier({ traceparent: TRACEPARENT, baggage: 'user=1' })).toEqual({
        traceparent: TRACEPARENT,
      });
      expect(sut.asTraceCarrier(undefined)).toBeUndefined();
      expect(sut.asTraceCarrier('00-…')).toBeUndefined();
    });
  });

  describe('contextFromCarrier', () => {
    it('makes the stored span the remote parent', () => {
      const parent = trace.getSpanContext(sut.contextFromCarrier({ traceparent: TRACEPARENT }));
      expect(parent).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID, isRemote: true });
    });

    it('is the root context without a carrier', () => {
      expect(sut.contextFromCarrier(undefined)).toBe(ROOT_CONTEXT);
    });
  });

  describe('linkToCarrier and traceIdOf', () => {
    it('link to the stored span and name its trace', () => {
      const carrier = { traceparent: TRACEPARENT };
      expect(sut.linkToCarrier(carrier, { why: 'origin' })).toMatchObject({
        context: { traceId: TRACE_ID, spanId: SPAN_ID },
        attributes: { why: 'origin' },
      });
      expect(sut.traceIdOf(carrier)).toBe(TRACE_ID);
    });

    it('are empty without a carrier', () => {
      expect(sut.linkToCarrier(undefined)).toBeUndefined();
      expect(sut.traceIdOf(undefined)).toBeUndefined();
    });
  });

  describe('while tracing is off', () => {
    it('runs the work with a span that records nothing, and makes no headers', async () => {
      const result = await sut.inSpan('work', { parent: { traceparent: TRACEPARENT } }, async (span) => {
        expect(span.isRecording()).toBe(false);
        expect(sut.traceHeaders()).toEqual({});
        return 42;
      });
      expect(result).toBe(42);
      expect(sut.startSpan('work', {})).toBeUndefined();
      expect(sut.carrierOf(undefined)).toBeUndefined();
    });

    it('does not even build the span options', async () => {
      const options = jest.fn(() => ({ attributes: { costly: 'yes' } }));
      await sut.inSpan('work', options, async () => undefined);
      expect(sut.startSpan('work', options)).toBeUndefined();
      expect(options).not.toHaveBeenCalled();
    });

    it('still ends in the error the work threw', async () => {
      await expect(
        sut.inSpan('work', {}, async () => {
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
    });
  });
});
