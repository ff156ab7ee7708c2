/**
 * The bare baseline of the HTTP scenarios: Fastify + pg + a BullMQ queue, no framework, written
 * as simply as possible while doing the same work as fincore's endpoints:
 *
 * - token lookup: sha256 of x-auth-token, cached in memory (10 s), PostgreSQL on a miss; scope check;
 * - POST /api/v1/cards/:cardId/settings/change: x-tenant-code check, body check, one transaction
 *   that locks the card row, applies the service-code rules, updates the card and inserts an
 *   outbox row; after commit the event goes onto the queue (not awaited);
 * - POST /api/v1/transactions/calculate-fees: body check, the card looked up in PostgreSQL, the
 *   same fee engine (pure functions) over the same standard price list held in memory;
 * - PATCH /api/v1/persons/:personId: one transaction that locks the person, updates the profile
 *   and inserts an outbox row; after commit the event (the whole envelope) goes onto the queue.
 *
 * What it leaves out on purpose (fincore does it): request logging, metrics, rate limiting,
 * problem+json rendering with i18n, OpenAPI-grade validation, the audit history row of a settings
 * change, marking outbox rows published, the second queue hop and delivery records.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Decimal from 'decimal.js';
import Fastify, { FastifyReply, FastifyRequest } from 'fastify';
import { Pool, PoolClient } from 'pg';
import { QuoteError, quoteFees } from '../../apps/card-api/src/pricing/domain/fee-engine';
import { toPriceList } from '../../apps/card-api/src/pricing/domain/fee-rule-document';
import {
  STANDARD_EXCHANGE_RATES,
  STANDARD_LABELS,
  STANDARD_PRICE_LIST_RULES,
  STANDARD_TRANSACTION_TYPES,
} from '../../apps/card-api/src/pricing/domain/standard-catalog';
import { SERVICE_CODES, VISA_ONLY } from './schema';

const env = process.env;
const pool = new Pool({ connectionString: env.DATABASE_URL, max: Number(env.DATABASE_POOL_SIZE ?? 10) });
const redisUrl = new URL(env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const queue = new Queue('domain-events', {
  connection: { host: redisUrl.hostname, port: Number(redisUrl.port || 6379), maxRetriesPerRequest: null },
  prefix: env.BASELINE_QUEUE_PREFIX,
  defaultJobOptions: {
    attempts: 12,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: 86400, count: 50_000 },
  },
});

// ------------------------------------------------------------------ auth

interface Principal {
  tenantId: string;
  tenantCode: string;
  scopes: string[];
}
const tokenCache = new Map<string, { principal: Principal; expiresAt: number }>();

async function authenticate(
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

async function inTransaction<T>(work: (c: PoolClient) => Promise<T>): Promise<T> {
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

class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {}
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (o: Record<string, unknown>, keys: string[]) =>
  Object.keys(o).every((k) => keys.includes(k));

function publish(type: string, tenantCode: string, id: string, occurredAt: Date, data: unknown): void {
  const envelope = { id, type, tenantCode, occurredAt: occurredAt.toISOString(), data };
  queue
    .add(type, envelope, { jobId: id })
    .catch((e: Error) => process.stderr.write(`enqueue failed: ${e.message}\n`));
}

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });

// ------------------------------------------------------------------ card settings change

interface Flag {
  serviceCode: string;
  allowed: boolean;
}

app.post<{ Params: { cardId: string } }>('/api/v1/cards/:cardId/settings/change', async (request, reply) => {
  const principal = await authenticate(request, reply, 'cards:write');
  if (!principal) return reply;
  const tenantHeader = request.headers['x-tenant-code'];
  if (typeof tenantHeader !== 'string') return reply.code(400).send({ code: 'tenant_header_required' });
  if (tenantHeader !== principal.tenantCode) return reply.code(403).send({ code: 'tenant_mismatch' });
  const body = request.body;
  if (
    !isObject(body) ||
    !onlyKeys(body, ['authorisationTypes', 'renewable', 'xpaysAllowed']) ||
    !Array.isArray(body.authorisationTypes) ||
    body.authorisationTypes.length > 64 ||
    !body.authorisationTypes.every(
      (e) =>
        isObject(e) &&
        onlyKeys(e, ['serviceCode', 'allowed']) &&
        typeof e.serviceCode === 'string' &&
        typeof e.allowed === 'boolean',
    ) ||
    typeof body.renewable !== 'boolean' ||
    typeof body.xpaysAllowed !== 'boolean'
  ) {
    return reply.code(400).send({ code: 'validation_failed' });
  }
  const requested = body.authorisationTypes as Flag[];
  const codes = requested.map((e) => e.serviceCode);
  if (codes.some((c) => !SERVICE_CODES.includes(c)))
    return reply.code(400).send({ code: 'unknown_service_code' });
  if (new Set(codes).size !== codes.length) return reply.code(400).send({ code: 'duplicate_service_code' });

  try {
    const settings = await inTransaction(async (c) => {
      const { rows } = await c.query(
        `SELECT c.network, c.status, c.authorisation_types, c.renewable, c.xpays_allowed, c.settings_version, g.allowed_service_codes
           FROM baseline.cards c JOIN baseline.usage_groups g ON g.tenant_id = c.tenant_id AND g.code = c.usage_group
          WHERE c.tenant_id = $1 AND c.card_id = $2 FOR UPDATE OF c`,
        [principal.tenantId, request.params.cardId],
      );
      const card = rows[0];
      if (!card) throw new Refusal(404, 'card_not_found');
      if (card.status === 'CLOSED') throw new Refusal(409, 'card_closed');
      const allowedByGroup: string[] = card.allowed_service_codes;
      if (card.network !== 'VISA' && codes.some((c) => VISA_ONLY.has(c)))
        throw new Refusal(422, 'service_code_not_supported_by_network');
      if (codes.some((c) => !allowedByGroup.includes(c)))
        throw new Refusal(422, 'service_code_not_in_usage_group');
      if (allowedByGroup.some((c) => !codes.includes(c))) throw new Refusal(422, 'service_codes_missing');

      const order = (flags: Flag[]) =>
        SERVICE_CODES.filter((s) => allowedByGroup.includes(s)).map((s) => ({
          serviceCode: s,
          allowed: flags.find((f) => f.serviceCode === s)?.allowed ?? false,
        }));
      const previous = {
        authorisationTypes: order(card.authorisation_types),
        renewable: card.renewable,
        xpaysAllowed: card.xpays_allowed,
      };
      const current = {
        authorisationTypes: order(requested),
        renewable: body.renewable as boolean,
        xpaysAllowed: body.xpaysAllowed as boolean,
      };
      const changedFields = [
        ...current.authorisationTypes
          .filter((f, i) => f.allowed !== previous.authorisationTypes[i].allowed)
          .map((f) => `authorisationTypes.${f.serviceCode}`),
        ...(current.renewable !== previous.renewable ? ['renewable'] : []),
        ...(current.xpaysAllowed !== previous.xpaysAllowed ? ['xpaysAllowed'] : []),
      ];
      if (!changedFields.length) return { current, event: null };
      await c.query(
        `UPDATE baseline.cards SET authorisation_types = $3, renewable = $4, xpays_allowed = $5, settings_version = settings_version + 1, settings_changed_at = now()
          WHERE tenant_id = $1 AND card_id = $2`,
        [
          principal.tenantId,
          request.params.cardId,
          JSON.stringify(current.authorisationTypes),
          current.renewable,
          current.xpaysAllowed,
        ],
      );
      const event = {
        id: randomUUID(),
        occurredAt: new Date(),
        data: { cardId: request.params.cardId, changedFields, previous, current },
      };
      await c.query(
        `INSERT INTO baseline.outbox (id, type, tenant_code, occurred_at, data) VALUES ($1, 'CARD_SETTINGS_CHANGED', $2, $3, $4)`,
        [event.id, principal.tenantCode, event.occurredAt, JSON.stringify(event.data)],
      );
      return { current, event };
    });
    if (settings.event)
      publish(
        'CARD_SETTINGS_CHANGED',
        principal.tenantCode,
        settings.event.id,
        settings.event.occurredAt,
        settings.event.data,
      );
    return settings.current;
  } catch (error) {
    if (error instanceof Refusal) return reply.code(error.status).send({ code: error.code });
    throw error;
  }
});

// ------------------------------------------------------------------ fee quote

const PRICE_LISTS = [
  toPriceList({
    id: randomUUID(),
    code: 'BENCH-STANDARD',
    level: 'TENANT',
    accountId: null,
    cardId: null,
    validFrom: '2026-01-01',
    validTo: null,
    rules: STANDARD_PRICE_LIST_RULES,
  }),
];
const RATES = STANDARD_EXCHANGE_RATES.map((r) => ({ ...r, rate: new Decimal(r.rate) }));
const TRANSACTION_TYPES = new Map(STANDARD_TRANSACTION_TYPES.map((t) => [t.code, t]));
const LABELS = new Set(STANDARD_LABELS.map((l) => l.code));

app.post('/api/v1/transactions/calculate-fees', async (request, reply) => {
  const principal = await authenticate(request, reply, 'fees:quote');
  if (!principal) return reply;
  const b = request.body;
  const amount = isObject(b) && isObject(b.transactionAmount) ? b.transactionAmount : undefined;
  if (
    !isObject(b) ||
    !amount ||
    typeof b.postingDate !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}$/.test(b.postingDate) ||
    typeof b.transactionTypeCode !== 'string' ||
    typeof amount.amount !== 'number' ||
    amount.amount < 0 ||
    typeof amount.currencyCode !== 'string' ||
    !/^[A-Z]{3}$/.test(amount.currencyCode) ||
    !(b.labels === undefined || (Array.isArray(b.labels) && b.labels.every((l) => typeof l === 'string'))) ||
    typeof b.accountId !== 'string' ||
    !(b.cardId === undefined || typeof b.cardId === 'string')
  ) {
    return reply.code(400).send({ code: 'validation_failed' });
  }
  const labels = (b.labels ?? []) as string[];
  const type = TRANSACTION_TYPES.get(b.transactionTypeCode);
  if (!type) return reply.code(422).send({ code: 'unknown_transaction_type' });
  if (labels.some((l) => !LABELS.has(l))) return reply.code(422).send({ code: 'unknown_labels' });
  if (amount.amount === 0 && !type.zeroAmountAllowed)
    return reply.code(422).send({ code: 'zero_amount_not_allowed' });
  const cardId = (b.cardId as string | undefined) ?? null;
  if (cardId === null) return reply.code(422).send({ code: 'card_required' });
  const { rows } = await pool.query(
    `SELECT account_id FROM baseline.cards WHERE tenant_id = $1 AND card_id = $2`,
    [principal.tenantId, cardId],
  );
  if (!rows.length) return reply.code(404).send({ code: 'card_not_found' });
  if (rows[0].account_id !== b.accountId) return reply.code(422).send({ code: 'card_not_on_account' });
  try {
    const quote = quoteFees(
      {
        postingDate: b.postingDate,
        transactionTypeCode: b.transactionTypeCode,
        amount: new Decimal(String(amount.amount)),
        currencyCode: amount.currencyCode,
        labels,
        accountId: b.accountId,
        cardId,
      },
      PRICE_LISTS,
      RATES,
    );
    return {
      postingDate: b.postingDate,
      transactionTypeCode: b.transactionTypeCode,
      transactionAmount: { amount: amount.amount, currencyCode: amount.currencyCode },
      labels,
      accountId: b.accountId,
      cardId,
      totalPrice: { amount: quote.totalPrice.toNumber(), currencyCode: quote.currencyCode },
      fees: quote.fees.map((f) => ({
        feeTypeCode: f.feeTypeCode,
        description: f.description,
        amount: f.amount.toNumber(),
        currencyCode: quote.currencyCode,
      })),
      priceList: quote.priceList,
    };
  } catch (error) {
    if (error instanceof QuoteError) return reply.code(422).send({ code: error.code });
    throw error;
  }
});

// ------------------------------------------------------------------ person update (events)

const PERSON_FIELDS = ['firstName', 'lastName', 'email', 'phone'] as const;
const COLUMNS: Record<(typeof PERSON_FIELDS)[number], string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phone: 'phone',
};

app.patch<{ Params: { personId: string } }>('/api/v1/persons/:personId', async (request, reply) => {
  const principal = await authenticate(request, reply, 'persons:write');
  if (!principal) return reply;
  const body = request.body;
  if (
    !isObject(body) ||
    !onlyKeys(body, [...PERSON_FIELDS]) ||
    !Object.values(body).every((v) => v === null || (typeof v === 'string' && v.length <= 254))
  ) {
    return reply.code(400).send({ code: 'validation_failed' });
  }
  try {
    const result = await inTransaction(async (c) => {
      const { rows } = await c.query(
        `SELECT first_name, last_name, email, phone FROM baseline.persons WHERE tenant_id = $1 AND person_id = $2 FOR UPDATE`,
        [principal.tenantId, request.params.personId],
      );
      if (!rows.length) throw new Refusal(404, 'person_not_found');
      const before = rows[0];
      const changed = PERSON_FIELDS.filter((f) => f in body && body[f] !== before[COLUMNS[f]]);
      const person = {
        personId: request.params.personId,
        ...Object.fromEntries(PERSON_FIELDS.map((f) => [f, f in body ? body[f] : before[COLUMNS[f]]])),
      };
      if (!changed.length) return { person, event: null };
      await c.query(
        `UPDATE baseline.persons SET ${changed.map((f, i) => `${COLUMNS[f]} = $${i + 3}`).join(', ')}, updated_at = now() WHERE tenant_id = $1 AND person_id = $2`,
        [principal.tenantId, request.params.personId, ...changed.map((f) => body[f])],
      );
      const event = {
        id: randomUUID(),
        occurredAt: new Date(),
        data: { personId: request.params.personId, changedFields: changed, person },
      };
      await c.query(
        `INSERT INTO baseline.outbox (id, type, tenant_code, occurred_at, data) VALUES ($1, 'PERSON_UPDATED', $2, $3, $4)`,
        [event.id, principal.tenantCode, event.occurredAt, JSON.stringify(event.data)],
      );
      return { person, event };
    });
    if (result.event)
      publish(
        'PERSON_UPDATED',
        principal.tenantCode,
        result.event.id,
        result.event.occurredAt,
        result.event.data,
      );
    return result.person;
  } catch (error) {
    if (error instanceof Refusal) return reply.code(error.status).send({ code: error.code });
    throw error;
  }
});

app.get('/health/ready', async () => ({ status: 'ok' }));

const shutdown = () => {
  void app
    .close()
    .then(() => Promise.all([queue.close(), pool.end()]))
    .finally(() => process.exit(0));
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);

app.listen({ port: Number(env.PORT), host: '127.0.0.1' }).catch((e: Error) => {
  process.stderr.write(`baseline api: ${e.message}\n`);
  process.exit(1);
});
