import { createHash } from 'node:crypto';
import { Queue } from 'bullmq';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Pool, PoolClient } from 'pg';

/** What the baseline API's routes share: the pool, the queue, the token check and small helpers. */
export const env = process.env;
export const pool = new Pool({
  connectionString: env.DATABASE_URL,
  max: Number(env.DATABASE_POOL_SIZE ?? 10),
});
const redisUrl = new URL(env.REDIS_URL ?? 'redis://127.0.0.1:6379');
export const queue = new Queue('domain-events', {
  connection: { host: redisUrl.hostname, port: Number(redisUrl.port || 6379), maxRetriesPerRequest: null },
  prefix: env.BASELINE_QUEUE_PREFIX,
  defaultJobOptions: {
    attempts: 12,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: 86400, count: 50_000 },
  },
});

export interface Principal {
  tenantId: string;
  tenantCode: string;
  scopes: string[];
}
const tokenCache = new Map<string, { principal: Principal; expiresAt: number }>();

export async function authenticate(
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
): Promise<Principal | undefined> {
  const token = request.headers['x-auth-token'];
  if (typeof token !== 'string' || !/^fct_[A-Za-z0-9_-]{43}$/.test(token))
    return void reply.code(401).send({ code: 'unauthorized' });
  const hash = createHash('sha256').update(token).digest('hex');
  let entry = tokenCache.get(hash);
  if (!entry || entry.expiresAt < Date.now()) {
    const { rows } = await pool.query(
      `SELECT t.tenant_id, tn.code, t.scopes FROM platform.api_tokens t JOIN platform.tenants tn ON tn.id = t.tenant_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
      [hash],
    );
    if (!rows.length) return void reply.code(401).send({ code: 'unauthorized' });
    entry = {
      principal: { tenantId: rows[0].tenant_id, tenantCode: rows[0].code, scopes: rows[0].scopes },
      expiresAt: Date.now() + 10_000,
    };
    tokenCache.set(hash, entry);
  }
  if (!entry.principal.scopes.includes(scope)) return void reply.code(403).send({ code: 'forbidden' });
  return entry.principal;
}

export async function inTransaction<T>(work: (c: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {}
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const onlyKeys = (o: Record<string, unknown>, keys: string[]) =>
  Object.keys(o).every((k) => keys.includes(k));

export function publish(type: string, tenantCode: string, id: string, occurredAt: Date, data: unknown): void {
  const envelope = { id, type, tenantCode, occurredAt: occurredAt.toISOString(), data };
  queue
    .add(type, envelope, { jobId: id })
    .catch((e: Error) => process.stderr.write(`enqueue failed: ${e.message}\n`));
}
