import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * Webhook receiver of the benchmark: answers 200 at once and notes, per person, when the first
 * PERSON_UPDATED webhook for it arrived (performance.now(), the clock the driver uses for the
 * API responses). Like test/support/webhook-receiver.ts, but it keeps only a timestamp per event
 * (no bodies, no headers) and has sub-millisecond resolution.
 */
export class TimingReceiver {
  /** Per path (one per system), arrival time per person id, first arrival only. */
  private readonly arrivals = new Map<string, Map<string, number>>();
  received = 0;
  /** Webhooks of an event already received, per path. */
  readonly duplicates = new Map<string, number>();
  private server?: Server;

  /** `slowPaths`: paths answered only after this many ms (a slow subscriber), arrival noted at once. */
  static async start(slowPaths: Record<string, number> = {}): Promise<TimingReceiver> {
    const receiver = new TimingReceiver();
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = performance.now();
        setTimeout(
          () => {
            res.writeHead(200, { 'content-type': 'text/plain' });
            res.end('ok');
          },
          slowPaths[req.url ?? '/'] ?? 0,
        );
        receiver.received++;
        try {
          const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          const personId = envelope?.data?.personId;
          if (envelope?.type !== 'PERSON_UPDATED' || typeof personId !== 'string') return;
          const onPath = receiver.on(req.url ?? '/');
          if (onPath.has(personId)) {
            receiver.duplicates.set(req.url ?? '/', (receiver.duplicates.get(req.url ?? '/') ?? 0) + 1);
            if (process.env.BENCH_DEBUG)
              process.stderr.write(`duplicate ${req.url} ${personId} ${String(req.headers['webhook-id'])}\n`);
          } else onPath.set(personId, at);
        } catch {}
      });
    });
    receiver.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => receiver.server!.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** Arrivals on one path (one system), by person id (a live map). */
  on(path: string): Map<string, number> {
    let map = this.arrivals.get(path);
    if (!map) this.arrivals.set(path, (map = new Map()));
    return map;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
