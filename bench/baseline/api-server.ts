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
import Fastify from 'fastify';
import { cardSettingsRoute } from './api/card-settings';
import { feeQuotesRoute } from './api/fee-quotes';
import { personsRoute } from './api/persons';
import { env, pool, queue } from './api/shared';

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
cardSettingsRoute(app);
feeQuotesRoute(app);
personsRoute(app);

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
