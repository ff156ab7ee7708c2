import { join } from 'node:path';
import type { Pool } from 'pg';
import type { EntityManager } from 'typeorm';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { OutboxEventEntity } from '@fincore/events';
import { NotificationRows } from '@test/support/builders/notifications';
import { expectQueriesSnapshot } from '@test/support/query-snapshot';
import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import { NOTIFICATION_ENTITIES } from '../src/notifications-data.module';
import type { AttemptRecord } from '../src/webhook-deliveries/webhook-delivery.rows';
import { WebhookDeliveryAdminRepository } from '../src/webhook-deliveries/webhook-delivery-admin.repository';
import { WebhookDeliveryAttemptRepository } from '../src/webhook-deliveries/webhook-delivery-attempt.repository';
import { WebhookDeliveryFanOutRepository } from '../src/webhook-deliveries/webhook-delivery-fan-out.repository';
import { WebhookDeliveryRetentionRepository } from '../src/webhook-deliveries/webhook-delivery-retention.repository';

/** Hand-written statements name their schema bare; TypeORM's own quote it, and transaction control names none. */
const HAND_WRITTEN = /\b(notifications|events)\.[a-z_]+/;
const original = PostgresQueryRunner.prototype.query;

describe('notification statements', () => {
  let testDb: TestDatabase;
  let rows: NotificationRows;
  let sent: string[] = [];
  /** Each text once, under the first name that sends it. */
  const seen = new Set<string>();

  beforeAll(async () => {
    testDb = await openTestDatabase([...NOTIFICATION_ENTITIES, OutboxEventEntity]);
    rows = new NotificationRows(testDb.dataSource);
    const pool = (testDb.dataSource.driver as PostgresDriver).master as Pool;
    const query = pool.query.bind(pool) as (config: { text: string }) => Promise<unknown>;
    jest.spyOn(pool, 'query').mockImplementation(((config: { text: string }) => {
      sent.push(config.text);
      return query(config);
    }) as never);
    jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(function (
      this: PostgresQueryRunner,
      ...args: Parameters<PostgresQueryRunner['query']>
    ) {
      sent.push(args[0]);
      return original.apply(this, args);
    } as never);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await testDb.close();
  });

  /** The hand-written statements `work` sends first, by name: one of a name, or `name.1`, `name.2`… */
  async function statementsOf(name: string, work: () => Promise<unknown>): Promise<Record<string, string>> {
    sent = [];
    await work();
    const texts = [...new Set(sent.filter((sql) => HAND_WRITTEN.test(sql) && !seen.has(sql)))];
    texts.forEach((sql) => seen.add(sql));
    return Object.fromEntries(texts.map((sql, i) => [texts.length === 1 ? name : `${name}.${i + 1}`, sql]));
  }

  it('holds every statement of the delivery repositories checked in under queries/', async () => {
    const db = testDb.dataSource;
    const fanOut = new WebhookDeliveryFanOutRepository(db);
    const attempt = new WebhookDeliveryAttemptRepository(db);
    const admin = new WebhookDeliveryAdminRepository(db);
    const retention = new WebhookDeliveryRetentionRepository(db);
    const tenant = await testDb.createTenant();
    await rows.enable(tenant);
    const endpoint = await rows.endpoint(tenant);
    const earlier = await rows.event(tenant, { personId: 'p-1' });
    const later = await rows.event(tenant, { personId: 'p-1' });
    const alone = await rows.event(tenant, { personId: 'p-2' });
    const tested = await rows.event(tenant, { personId: 'p-3' });
    const delivery = await rows.delivery(endpoint);
    const chain = { endpointId: endpoint.id, subjectType: 'person', subjectId: 'p-1', sequence: 2 };
    const record = (status: AttemptRecord['status']): AttemptRecord => ({
      deliveryId: delivery.id,
      endpointId: endpoint.id,
      startedAt: new Date(),
      finishedAt: new Date(),
      durationMs: 5,
      statusCode: 200,
      outcome: status === 'SUCCEEDED' ? 'SUCCEEDED' : 'FAILED',
      error: null,
      responseExcerpt: null,
      requestHeaders: null,
      status,
      nextAttemptAt: null,
    });
    const range = { tenantId: tenant.id, endpointId: endpoint.id, since: new Date(0), until: new Date() };
    const inTransaction = (work: (manager: EntityManager) => Promise<unknown>) => () => db.transaction(work);

    expectQueriesSnapshot(join(__dirname, 'webhook-delivery-fan-out.repository.sql'), {
      ...(await statementsOf('claimEventAndCreateDeliveries', () =>
        fanOut.claimEventAndCreateDeliveries(alone, new Date()),
      )),
      // an earlier event of the subject waits: both are fanned out in a transaction, locked
      ...(await statementsOf('claimEventAndCreateDeliveries, earlier events waiting', () =>
        fanOut.claimEventAndCreateDeliveries(later, new Date()),
      )),
      ...(await statementsOf('findPendingForEvent', () => fanOut.findPendingForEvent(earlier, new Date()))),
      ...(await statementsOf('countPendingOfTenant', () => fanOut.countPendingOfTenant(tenant.id))),
      ...(await statementsOf(
        'createForEndpoint',
        inTransaction((manager) =>
          fanOut.createForEndpoint(manager, {
            tenantId: tenant.id,
            endpointId: endpoint.id,
            eventId: tested,
            type: 'WEBHOOK_TEST',
            occurredAt: new Date(),
          }),
        ),
      )),
    });
    expectQueriesSnapshot(join(__dirname, 'webhook-delivery-attempt.repository.sql'), {
      ...(await statementsOf('findForAttempt', () => attempt.findForAttempt(delivery.id))),
      ...(await statementsOf('pendingInChain', () => attempt.pendingInChain(chain, 'before'))),
      ...(await statementsOf('recordSucceededAttempt', () =>
        attempt.recordSucceededAttempt(record('SUCCEEDED')),
      )),
      ...(await statementsOf('recordSucceededAttempts', () =>
        attempt.recordSucceededAttempts([record('SUCCEEDED')]),
      )),
      ...(await statementsOf(
        'lockForFailedAttempt, recordFailedAttempt',
        inTransaction(async (manager) => {
          await attempt.lockForFailedAttempt(manager, delivery.id);
          await attempt.recordFailedAttempt(manager, record('FAILED'));
        }),
      )),
      ...(await statementsOf('failPendingDelivery', () => attempt.failPendingDelivery(delivery.id, 'gone'))),
    });
    expectQueriesSnapshot(join(__dirname, 'webhook-delivery-admin.repository.sql'), {
      ...(await statementsOf(
        'lockFailedOfEndpoint, requeue',
        inTransaction(async (manager) =>
          admin.requeue(manager, tenant.id, await admin.lockFailedOfEndpoint(manager, range)),
        ),
      )),
      ...(await statementsOf(
        'failPendingOfEndpoint',
        inTransaction((manager) => admin.failPendingOfEndpoint(manager, endpoint.id, 'gone')),
      )),
      ...(await statementsOf('pagePending', () =>
        admin.pagePending({ createdAt: new Date(0), id: delivery.id }, 10, new Date()),
      )),
      ...(await statementsOf('countPerHourOfEndpoint', () =>
        admin.countPerHourOfEndpoint(tenant.id, endpoint.id, new Date(), 24),
      )),
      ...(await statementsOf('healthOfTenant', () => admin.healthOfTenant(tenant.id, new Date()))),
    });
    expectQueriesSnapshot(join(__dirname, 'webhook-delivery-retention.repository.sql'), {
      ...(await statementsOf('deleteFinishedBefore', () => retention.deleteFinishedBefore(new Date(0), 10))),
      ...(await statementsOf('deleteProcessedEventsBefore', () =>
        retention.deleteProcessedEventsBefore(new Date(0), 10),
      )),
    });
  });
});
