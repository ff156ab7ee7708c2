import { Inject, Injectable, Optional } from '@nestjs/common';
import got from 'got';
import {
  DestinationPolicy,
  HostLookup,
  parseWebhookUrl,
  safeLookup,
  UnsafeDestinationError,
} from '@fincore/webhooks';
import { traceHeaders } from '@fincore/platform';
import type { AttemptResult } from './domain/retry-policy';

export const USER_AGENT = 'fincore-webhooks/0.1 (+https://www.standardwebhooks.com)';
/** Enough of a response body to see what went wrong, small enough to store on every attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * One got instance for every attempt: what never changes is merged once, not on every request. No
 * got-level retries (the delivery's schedule retries), no redirects, HTTP/1.1 on Node's keep-alive
 * agent, whose pooled sockets were checked by safeLookup when they connected.
 */
const BASE_HEADERS = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
const client = got.extend({
  followRedirect: false,
  throwHttpErrors: false,
  retry: { limit: 0 },
  http2: false,
  headers: BASE_HEADERS,
});

/**
 * Token for the resolver the sender asks for a host's addresses; unset, the system resolver. A
 * global module may provide one, e.g. a test that needs a name resolving to a chosen address.
 */
export const HOST_LOOKUP = Symbol('HOST_LOOKUP');

export interface SentAttempt {
  result: AttemptResult;
  durationMs: number;
  responseExcerpt: string | null;
  /** The request's headers as sent; null when the destination was refused before any request. */
  requestHeaders: Record<string, string> | null;
}

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  policy: DestinationPolicy;
  /** Client certificate, key and CAs presented for mutual TLS (got's `https` options). */
  tls?: { certificate: string; key: string; certificateAuthority?: string };
}

/**
 * One POST of a signed webhook: no redirects (a 3xx is a failure, not an invitation to go
 * elsewhere), a hard timeout, the destination checked on the very address connected to, and
 * only the first bytes of the answer read.
 */
@Injectable()
export class WebhookSender {
  /** One checking lookup per policy (there is one per process), not a new closure per request. */
  private readonly lookups = new Map<boolean, ReturnType<typeof safeLookup>>();

  constructor(@Optional() @Inject(HOST_LOOKUP) private readonly lookup?: HostLookup) {}

  private lookupFor(policy: DestinationPolicy): never {
    let found = this.lookups.get(policy.allowPrivateNetworks);
    if (!found) {
      found = safeLookup(policy, this.lookup);
      this.lookups.set(policy.allowPrivateNetworks, found);
    }
    return found as never;
  }

  async send(input: WebhookRequest): Promise<SentAttempt> {
    const started = process.hrtime.bigint();
    const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
    try {
      parseWebhookUrl(input.url, input.policy);
    } catch (error) {
      return {
        result: { kind: 'error', message: `destination refused: ${(error as Error).message}` },
        durationMs: 0,
        responseExcerpt: null,
        requestHeaders: null,
      };
    }
    // traceparent (and tracestate) of the attempt's span, when there is one: W3C Trace Context.
    const headers = { ...traceHeaders(), ...input.headers };
    return new Promise<SentAttempt>((resolve) => {
      let settled = false;
      let statusCode: number | undefined;
      let retryAfter: string | undefined;
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        // PostgreSQL text cannot hold NUL: left in, one receiver's answer would make the attempt unrecordable and resent forever.
        const excerpt = size
          ? Buffer.concat(chunks)
              .subarray(0, RESPONSE_EXCERPT_BYTES)
              .toString('utf8')
              .replaceAll('\u0000', '')
          : null;
        resolve({
          result,
          durationMs: elapsed(),
          responseExcerpt: excerpt,
          requestHeaders: { ...BASE_HEADERS, ...headers },
        });
      };
      const stream = client.stream.post(input.url, {
        body: input.body,
        headers,
        timeout: { request: input.timeoutMs },
        dnsLookup: this.lookupFor(input.policy),
        ...(input.tls && { https: input.tls }),
      });
      stream.on(
        'response',
        (response: { statusCode: number; headers: Record<string, string | string[] | undefined> }) => {
          statusCode = response.statusCode;
          const header = response.headers['retry-after'];
          retryAfter = Array.isArray(header) ? header[0] : header;
        },
      );
      stream.on('data', (chunk: Buffer) => {
        if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_EXCERPT_BYTES && statusCode !== undefined) {
          // Enough read: the rest of a large answer is not our business.
          finish({ kind: 'response', statusCode, retryAfter });
          stream.destroy();
        }
      });
      stream.on('end', () =>
        finish(
          statusCode === undefined
            ? { kind: 'error', message: 'no response' }
            : { kind: 'response', statusCode, retryAfter },
        ),
      );
      stream.on('error', (error: Error & { code?: string }) => {
        if (statusCode !== undefined) return finish({ kind: 'response', statusCode, retryAfter });
        finish({ kind: 'error', message: describeError(error, !!input.tls) });
      });
    });
  }
}

function describeError(error: Error & { code?: string }, clientCertificate: boolean): string {
  // Refused at connect time (the resolved address) reads as a refusal before connecting does.
  if (error.cause instanceof UnsafeDestinationError) return `destination refused: ${error.cause.message}`;
  const message = error.message.split('\n')[0];
  if (error.code === 'ETIMEDOUT') return `timeout: ${message}`;
  const described = error.code && !message.includes(error.code) ? `${error.code}: ${message}` : message;
  // Under TLS 1.3 a server checks the client certificate after the handshake and, refusing it, may
  // close the connection without an alert: the hang-up is all the client sees.
  if (clientCertificate && error.code === 'ECONNRESET')
    return `${described} (closed without an answer: the receiver may have refused the client certificate)`;
  return described;
}
