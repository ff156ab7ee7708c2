import { createPublicKey, verify } from 'node:crypto';
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer, ServerOptions as HttpsOptions } from 'node:https';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { eventually } from './http';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  receivedAt: Date;
  /** Status this receiver answered with. */
  answeredWith: number;
  /** The Retry-After (in seconds) this receiver answered with, if any. */
  answeredRetryAfter?: number;
}

export interface ReceiverResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answers with the request's own body, as a careless receiver echoing what it got. */
  echo?: boolean;
  delayMs?: number;
}

/**
 * A real HTTP server (on 127.0.0.1 unless told) that records every webhook and answers as the test scripts it
 * (e.g. 500, 500, then 200). It can be stopped and restarted on the same port.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private server?: Server;
  private port = 0;
  private script: Array<ReceiverResponse> = [];
  private fallback: ReceiverResponse = { status: 200, body: 'ok' };
  /** Answers for one path instead of `fallback` (the script still comes first). */
  private readonly fallbackByPath = new Map<string, ReceiverResponse>();
  /** Answers for the next requests to one path, before its fallback. */
  private readonly scriptByPath = new Map<string, ReceiverResponse[]>();
  /** Answers held back by `delayMs`, dropped on `stop` so no timer outlives the test. */
  private readonly delayed = new Set<NodeJS.Timeout>();

  /** On `host` (127.0.0.1 unless given); with `tls`, HTTPS (e.g. `requestCert: true, rejectUnauthorized: true`). */
  static async start(options: { host?: string; tls?: HttpsOptions } = {}): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(options.host ?? '127.0.0.1', options.tls);
    await receiver.listen();
    return receiver;
  }

  private constructor(
    /** The address it listens on. */
    private readonly host: string,
    private readonly tls?: HttpsOptions,
  ) {}

  get url(): string {
    return `${this.tls ? 'https' : 'http'}://${this.host}:${this.port}`;
  }

  /** Answers the next requests with these responses in order, then with `fallback`. */
  respondWith(...responses: ReceiverResponse[]): this {
    this.script.push(...responses);
    return this;
  }

  setDefault(response: ReceiverResponse): this {
    this.fallback = response;
    return this;
  }

  /** Answers the next requests to `path` with these responses in order, then as before. */
  respondWithFor(path: string, ...responses: ReceiverResponse[]): this {
    this.scriptByPath.set(path, [...(this.scriptByPath.get(path) ?? []), ...responses]);
    return this;
  }

  /** Answers requests to `path` with `response` (null: as every other path again). */
  setDefaultFor(path: string, response: ReceiverResponse | null): this {
    if (response) this.fallbackByPath.set(path, response);
    else this.fallbackByPath.delete(path);
    return this;
  }

  async listen(): Promise<void> {
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const response =
          this.script.shift() ??
          this.scriptByPath.get(path)?.shift() ??
          this.fallbackByPath.get(path) ??
          this.fallback;
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        this.received.push({
          path,
          headers: req.headers,
          body,
          json,
          receivedAt: new Date(),
          answeredWith: response.status,
          ...(response.headers?.['retry-after'] && {
            answeredRetryAfter: Number(response.headers['retry-after']),
          }),
        });
        const send = () => {
          res.writeHead(response.status, response.headers);
          res.end(response.echo ? body : (response.body ?? ''));
        };
        if (!response.delayMs) return send();
        const timer = setTimeout(() => {
          this.delayed.delete(timer);
          send();
        }, response.delayMs);
        this.delayed.add(timer);
      });
    };
    this.server = this.tls ? createHttpsServer(this.tls, handle) : createServer(handle);
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.port, this.host, () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Stops answering (connections refused) until `listen` is called again. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const timer of this.delayed) clearTimeout(timer);
    this.delayed.clear();
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async waitFor(
    count: number,
    options: { timeoutMs?: number; filter?: (w: ReceivedWebhook) => boolean } = {},
  ): Promise<ReceivedWebhook[]> {
    return eventually(
      () => {
        const matching = options.filter ? this.received.filter(options.filter) : this.received;
        return matching.length >= count ? matching : undefined;
      },
      { timeoutMs: options.timeoutMs ?? 15_000, what: `${count} webhook(s)` },
    );
  }
}

/** Checks the signature with the independent `standardwebhooks` package; returns the verified payload. */
export function verifyWebhook(webhook: ReceivedWebhook, secret: string): any {
  return new Webhook(secret).verify(webhook.body, webhook.headers as Record<string, string>);
}

/**
 * A subscriber's `v1a` check with node:crypto alone, never fincore's code: some `v1a,` signature of
 * `<webhook-id>.<webhook-timestamp>.<body>` verifies with the published key (whpk_ + base64 of its
 * 32 raw bytes).
 */
export function verifiesV1a(webhook: ReceivedWebhook, whpk: string): boolean {
  const raw = Buffer.from(whpk.replace(/^whpk_/, ''), 'base64');
  if (!whpk.startsWith('whpk_') || raw.length !== 32) return false;
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
    format: 'jwk',
  });
  const signed = Buffer.from(
    `${String(webhook.headers['webhook-id'])}.${String(webhook.headers['webhook-timestamp'])}.${webhook.body}`,
  );
  return String(webhook.headers['webhook-signature'] ?? '')
    .split(' ')
    .filter((s) => s.startsWith('v1a,'))
    .some((s) => verify(null, signed, key, Buffer.from(s.slice('v1a,'.length), 'base64')));
}
