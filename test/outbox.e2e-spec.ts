import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import { DataSource } from 'typeorm';
import {
  EventsModule,
  OutboxPublisher,
  OutboxRelay,
  QueueName,
  queuePrefix,
  redisConnectionOptions,
  UnitOfWork,
} from '@fincore/events';
import { ApiAuth, AppDefinition, CurrentPrincipal, Principal } from '@fincore/platform';
import { eventually } from './support/http';
import { commitEvent, outboxEvents, recordEvent } from './support/outbox';
import { RunningApp, TestStack } from './support/stack';

/** An app that changes nothing but emits PERSON_UPDATED through the real unit of work. */
@Controller('api/v1/outbox-probe')
class OutboxProbeController {
  constructor(private readonly uow: UnitOfWork) {}

  @Post('emit')
  @HttpCode(200)
  @ApiAuth()
  async emit(@CurrentPrincipal() principal: Principal) {
    const event = await this.uow.run((tx) =>
      tx.emit('PERSON_UPDATED', principal.tenantCode, { personId: 'p-1', changedFields: ['firstName'] }),
    );
    return { eventId: event.id };
  }
}

@Module({ imports: [EventsModule.forRoot({ relay: true })], controllers: [OutboxProbeController] })
class OutboxProbeModule {}

const OutboxProbeApp: AppDefinition = {
  name: 'outbox-probe',
  title: 'probe',
  description: 'probe',
  module: OutboxProbeModule,
  port: () => 0,
};

const personUpdated = { personId: 'p-1', changedFields: ['lastName'] };

describe('transactional outbox and relay', () => {
  let stack: TestStack;
  let sut: RunningApp;
  let db: DataSource;
  let queue: Queue;

  const outboxRow = async (id: string) => (await outboxEvents(db, { id }))[0];
  const jobCount = async () => {
    const counts = await queue.getJobCounts(
      'waiting',
      'active',
      'completed',
      'failed',
      'delayed',
      'prioritized',
    );
    return Object.values(counts).reduce((a, b) => a + b, 0);
  };

  beforeAll(async () => {
    // A slow poll proves that LISTEN/NOTIFY, not the poll, wakes the relay.
    stack = await TestStack.create({ OUTBOX_POLL_MS: '600000', RECONCILE_INTERVAL_MS: '600000' });
    sut = await stack.startApp(OutboxProbeApp);
    db = await stack.db();
    queue = new Queue(QueueName.DomainEvents, {
      connection: redisConnectionOptions(stack.config.REDIS_URL),
      prefix: queuePrefix(stack.config.QUEUE_PREFIX),
    });
  });
  afterAll(async () => {
    await queue.close();
    await stack.close();
  });

  it('publishes an event after commit: job id = event id, row marked published, correlation id = request id', async () => {
    const { token } = await stack.createTenant();
    const r = await sut.api.post(
      '/api/v1/outbox-probe/emit',
      {},
      { token, headers: { 'x-request-id': 'req-outbox-1' } },
    );
    expect(r.status).toBe(200);
    const { eventId } = r.body;
    const job = await eventually(() => queue.getJob(eventId), { what: 'the domain-events job' });
    expect(job.data).toEqual({ eventId });
    const row = await eventually(async () => {
      const found = await outboxRow(eventId);
      return found?.publishedAt ? found : undefined;
    });
    expect(row.correlationId).toBe('req-outbox-1');
  });

  it('leaves no event when the transaction rolls back', async () => {
    const uow = sut.app.get(UnitOfWork);
    let emittedId = '';
    await expect(
      uow.run(async (tx) => {
        emittedId = (await tx.emit('PERSON_UPDATED', 'ACME', personUpdated)).id;
        throw new Error('business rule failed after the event was recorded');
      }),
    ).rejects.toThrow('business rule failed');
    expect(emittedId).not.toBe('');
    expect(await outboxRow(emittedId)).toBeUndefined();
    expect(await queue.getJob(emittedId)).toBeUndefined();
  });

  it('refuses event data that does not match the catalog schema, and rolls back with it', async () => {
    const uow = sut.app.get(UnitOfWork);
    await expect(
      uow.run((tx) => tx.emit('PERSON_UPDATED', 'ACME', { personId: 'p-1', changedFields: [] } as never)),
    ).rejects.toThrow(/does not match its schema/);
    expect(await outboxEvents(db, { data: { personId: 'p-1', changedFields: [] } })).toEqual([]);
  });

  it('records many events in one statement and publishes each; one bad datum writes none', async () => {
    const uow = sut.app.get(UnitOfWork);
    const personIds = Array.from({ length: 250 }, (_, i) => `bulk-${i}`);
    const events = await uow.run((tx) =>
      tx.emitAll(
        'PERSON_UPDATED',
        'ACME',
        personIds.map((personId) => ({ personId, changedFields: ['lastName'] })),
      ),
    );
    expect(new Set(events.map((e) => e.id)).size).toBe(personIds.length);
    const rows = await outboxEvents(db, { ids: events.map((e) => e.id) });
    expect(rows.map((r) => r.data.personId).sort()).toEqual([...personIds].sort());
    await eventually(async () => (await Promise.all(events.map((e) => queue.getJob(e.id)))).every(Boolean), {
      what: 'a job per event',
    });

    await expect(
      uow.run((tx) =>
        tx.emitAll('PERSON_UPDATED', 'ACME', [
          { personId: 'bulk-ok', changedFields: ['lastName'] },
          { personId: 'bulk-bad', changedFields: [] } as never,
        ]),
      ),
    ).rejects.toThrow(/does not match its schema/);
    for (const personId of ['bulk-ok', 'bulk-bad'])
      expect(await outboxEvents(db, { data: { personId } })).toEqual([]);
  });

  it('publishes an event committed by a process that died before publishing (relay woken by NOTIFY)', async () => {
    // Exactly the state a crash between COMMIT and publish leaves: a committed row, no job.
    const event = await commitEvent(db, { type: 'PERSON_UPDATED', tenantCode: 'ACME', data: personUpdated });
    const job = await eventually(() => queue.getJob(event.id), {
      what: 'the relay to publish the orphaned event',
    });
    expect(job.data).toEqual({ eventId: event.id });
    await eventually(async () => (await outboxRow(event.id))?.publishedAt, {
      what: 'the row marked published',
    });
  });

  it('publishes rows left behind while no relay ran, on the next start', async () => {
    const quiet = await TestStack.create({ OUTBOX_POLL_MS: '600000' });
    try {
      const quietDb = await quiet.db();
      const orphans = await quietDb.transaction(async (manager) => {
        const events = [];
        for (let i = 0; i < 3; i++)
          events.push(
            await recordEvent(manager, { type: 'PERSON_UPDATED', tenantCode: 'ACME', data: personUpdated }),
          );
        return events;
      });
      const quietQueue = new Queue(QueueName.DomainEvents, {
        connection: redisConnectionOptions(quiet.config.REDIS_URL),
        prefix: queuePrefix(quiet.config.QUEUE_PREFIX),
      });
      try {
        expect(await quietQueue.getJob(orphans[0].id)).toBeUndefined();
        await quiet.startApp(OutboxProbeApp);
        for (const e of orphans) await eventually(() => quietQueue.getJob(e.id), { what: `job ${e.id}` });
      } finally {
        await quietQueue.close();
      }
    } finally {
      await quiet.close();
    }
  });

  it('yields one job when the same event is published twice', async () => {
    const publisher = sut.app.get(OutboxPublisher);
    const event = await commitEvent(db, { type: 'PERSON_UPDATED', tenantCode: 'ACME', data: personUpdated });
    const before = await jobCount();
    const claimed = { id: event.id, tenantCode: 'ACME', traceContext: null };
    await Promise.all([publisher.enqueue([claimed]), publisher.enqueue([claimed])]);
    await publisher.enqueue([claimed]);
    await publisher.publish([event.id]);
    await eventually(async () => (await outboxRow(event.id))?.publishedAt);
    expect(await jobCount()).toBe(before + 1);
    // Once marked published, neither the publisher nor the relay claims the row again.
    expect(await publisher.publish([event.id])).toBe(0);
  });

  it('re-enqueues published but unprocessed events whose jobs Redis lost', async () => {
    const publisher = sut.app.get(OutboxPublisher);
    const relay = sut.app.get(OutboxRelay);
    const event = await commitEvent(db, { type: 'PERSON_UPDATED', tenantCode: 'ACME', data: personUpdated });
    await publisher.publish([event.id]);
    await eventually(() => queue.getJob(event.id));
    // Redis loses everything; the row is older than the reconcile grace period.
    await queue.obliterate({ force: true });
    await db.query(`UPDATE events.outbox SET published_at = now() - interval '5 minutes' WHERE id = $1`, [
      event.id,
    ]);
    expect(await queue.getJob(event.id)).toBeUndefined();
    expect(await relay.reconcile()).toBeGreaterThanOrEqual(1);
    expect(await queue.getJob(event.id)).toBeDefined();
    // A processed event is never re-enqueued.
    await db.query(`UPDATE events.outbox SET processed_at = now() WHERE id = $1`, [event.id]);
    await queue.obliterate({ force: true });
    await relay.reconcile();
    expect(await queue.getJob(event.id)).toBeUndefined();
  });

  it('retries a domain-events job that ran out of attempts, so its event is still handled', async () => {
    const publisher = sut.app.get(OutboxPublisher);
    const relay = sut.app.get(OutboxRelay);
    const event = await commitEvent(db, { type: 'PERSON_UPDATED', tenantCode: 'ACME', data: personUpdated });
    const consume = (handle: (job: Job) => Promise<void>) =>
      new Worker(QueueName.DomainEvents, handle, {
        connection: redisConnectionOptions(stack.config.REDIS_URL),
        prefix: queuePrefix(stack.config.QUEUE_PREFIX),
      });
    // A consumer that gives up on the event for good (say, without its database for too long).
    const failing = consume(async (job) => {
      if (job.id === event.id) throw new UnrecoverableError('database away');
    });
    await publisher.publish([event.id]);
    await eventually(async () => (await (await queue.getJob(event.id))?.getState()) === 'failed');
    await failing.close();
    await db.query(`UPDATE events.outbox SET published_at = now() - interval '5 minutes' WHERE id = $1`, [
      event.id,
    ]);

    expect(await relay.reconcile()).toBeGreaterThanOrEqual(1);
    expect(await (await queue.getJob(event.id))!.getState()).not.toBe('failed');
    // The consumer is back: the event reaches it.
    const handled: string[] = [];
    const recovered = consume(async (job) => {
      handled.push(job.id!);
    });
    try {
      await eventually(() => handled.includes(event.id));
    } finally {
      await recovered.close();
    }
  });

  it('runs again a completed domain-events job whose event was left unprocessed (its commit lost in a crash)', async () => {
    const publisher = sut.app.get(OutboxPublisher);
    const relay = sut.app.get(OutboxRelay);
    const event = await commitEvent(db, { type: 'PERSON_UPDATED', tenantCode: 'ACME', data: personUpdated });
    const handled: string[] = [];
    const consume = () =>
      new Worker(QueueName.DomainEvents, async (job: Job) => void handled.push(job.id!), {
        connection: redisConnectionOptions(stack.config.REDIS_URL),
        prefix: queuePrefix(stack.config.QUEUE_PREFIX),
      });
    // A consumer whose claim of the event PostgreSQL lost: its job completed, the row says unprocessed.
    const forgetful = consume();
    await publisher.publish([event.id]);
    await eventually(async () => (await (await queue.getJob(event.id))?.getState()) === 'completed');
    await forgetful.close();
    await db.query(`UPDATE events.outbox SET published_at = now() - interval '5 minutes' WHERE id = $1`, [
      event.id,
    ]);

    expect(await relay.reconcile()).toBeGreaterThanOrEqual(1);
    expect(await (await queue.getJob(event.id))!.getState()).not.toBe('completed');
    const again = consume();
    try {
      await eventually(() => handled.filter((id) => id === event.id).length === 2);
    } finally {
      await again.close();
    }
    // Once processed, its completed job is left alone.
    await db.query(`UPDATE events.outbox SET processed_at = now() WHERE id = $1`, [event.id]);
    await eventually(async () => (await (await queue.getJob(event.id))?.getState()) === 'completed');
    await relay.reconcile();
    expect(await (await queue.getJob(event.id))!.getState()).toBe('completed');
  });
});
