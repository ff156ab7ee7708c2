import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { eventually } from './http';

/** One span as an OTLP/HTTP JSON export carries it, flattened for assertions. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: Array<{ traceId: string; spanId: string; attributes: Record<string, string | number | boolean> }>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
}

export const SpanKindCode = { SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
type OtlpAttribute = { key: string; value: OtlpValue };

const flat = (attributes: OtlpAttribute[] = []) =>
  Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
        value.boolValue ??
        value.doubleValue ??
        '',
    ]),
  ) as Record<string, string | number | boolean>;

/**
 * A real OTLP/HTTP receiver on 127.0.0.1 (JSON encoding: OTEL_EXPORTER_OTLP_PROTOCOL=http/json)
 * that keeps every span the apps export to `POST /v1/traces`.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Requests it could not read, e.g. protobuf sent to it: a test expecting spans fails on these. */
  readonly refused: string[] = [];
  private server?: Server;

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          if (req.method !== 'POST' || req.url !== '/v1/traces') throw new Error(`${req.method} ${req.url}`);
          receiver.keep(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } catch (error) {
          receiver.refused.push(`${req.headers['content-type']}: ${(error as Error).message}`);
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => receiver.server!.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** The value for OTEL_EXPORTER_OTLP_ENDPOINT. */
  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** The spans of one trace once `done` says all expected ones are there. */
  async waitForTrace(
    traceId: string,
    done: (spans: ReceivedSpan[]) => boolean,
    what = `the spans of trace ${traceId}`,
  ): Promise<ReceivedSpan[]> {
    return eventually(
      () => {
        if (this.refused.length) throw new Error(`OTLP receiver refused: ${this.refused.join('; ')}`);
        const spans = this.spans.filter((s) => s.traceId === traceId);
        return done(spans) ? spans : undefined;
      },
      { timeoutMs: 20_000, what },
    );
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private keep(body: any): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service = String(flat(resourceSpans.resource?.attributes)['service.name'] ?? '');
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: flat(span.attributes),
            links: (span.links ?? []).map((l: any) => ({
              traceId: l.traceId,
              spanId: l.spanId,
              attributes: flat(l.attributes),
            })),
            statusCode: span.status?.code ?? 0,
          });
        }
      }
    }
  }
}
