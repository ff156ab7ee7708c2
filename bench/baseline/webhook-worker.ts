/**
 * The bare baseline of webhook delivery: one BullMQ worker on the baseline's `domain-events`
 * queue that POSTs each event (the job carries the whole envelope) to each of its URLs with got
 * (WEBHOOK_URLS, comma-separated: the tenant's endpoints, all at once), signed
 * like fincore (Standard Webhooks HMAC-SHA256), and fails the job on a non-2xx answer so BullMQ
 * retries it. No notification config lookup in PostgreSQL, no delivery rows, no attempt log, no
 * second queue: the least a webhook sender can do.
 *
 * A tiny HTTP server answers /health/ready once the worker is connected, so the benchmark knows
 * when to start.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { Worker } from 'bullmq';
import got from 'got';

const env = process.env;
const redisUrl = new URL(env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const targets = env.WEBHOOK_URLS!.split(',');
const secret = Buffer.from(env.WEBHOOK_SECRET!.replace(/^whsec_/, ''), 'base64');
const types = new Set((env.WEBHOOK_TYPES ?? 'PERSON_UPDATED').split(','));

const worker = new Worker(
  'domain-events',
  async (job) => {
    if (!types.has(job.name)) return;
    const body = JSON.stringify(job.data);
    const id = String(job.data.id);
    const timestamp = Math.floor(Date.now() / 1000).toString();
    const signature = createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`).digest('base64');
    const post = async (target: string) => {
      const response = await got.post(target, {
        body,
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': timestamp,
          'webhook-signature': `v1,${signature}`,
        },
        timeout: { request: Number(env.WEBHOOK_TIMEOUT_MS ?? 10_000) },
        retry: { limit: 0 },
        followRedirect: false,
        throwHttpErrors: false,
      });
      if (response.statusCode < 200 || response.statusCode >= 300)
        throw new Error(`webhook answered ${response.statusCode}`);
    };
    await Promise.all(targets.map(post));
  },
  {
    connection: { host: redisUrl.hostname, port: Number(redisUrl.port || 6379), maxRetriesPerRequest: null },
    prefix: env.BASELINE_QUEUE_PREFIX,
    concurrency: Number(env.WEBHOOK_CONCURRENCY ?? 20),
  },
);

let ready = false;
void worker.waitUntilReady().then(() => (ready = true));
const health = createServer((_req, res) => {
  res.writeHead(ready ? 200 : 503);
  res.end();
});
health.listen(Number(env.PORT), '127.0.0.1');

const shutdown = () => {
  health.close();
  void worker.close().finally(() => process.exit(0));
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
