import type { DataSource, EntityManager } from 'typeorm';
import { requestContext } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import type { OutboxPublisher } from './outbox-publisher';
import type { OutboxRepository } from './outbox.repository';
import { UnitOfWork } from './unit-of-work';

describe('UnitOfWork', () => {
  let db: jest.Mocked<DataSource>;
  let outbox: jest.Mocked<OutboxRepository>;
  let publisher: jest.Mocked<OutboxPublisher>;
  let sut: UnitOfWork;
  const manager = { name: 'transaction manager' } as unknown as EntityManager;
  const data = { personId: 'p-1', changedFields: ['lastName'] };

  beforeEach(() => {
    db = newDouble<DataSource>();
    // A transaction that runs its body with the transaction's manager, as TypeORM does.
    db.transaction.mockImplementation(async (...args: unknown[]) => {
      const body = args[args.length - 1] as (m: EntityManager) => Promise<unknown>;
      return body(manager);
    });
    outbox = newDouble<OutboxRepository>();
    publisher = newDouble<OutboxPublisher>();
    sut = new UnitOfWork(db, outbox, publisher);
  });

  describe('run', () => {
    it('writes emitted events with the transaction, then publishes them after commit', async () => {
      const event = await requestContext.run({ requestId: 'req-7' }, () =>
        sut.run((tx) => tx.emit('PERSON_UPDATED', 'ACME', data)),
      );
      expect(event).toMatchObject({
        type: 'PERSON_UPDATED',
        tenantCode: 'ACME',
        correlationId: 'req-7',
        data,
      });
      // No trace without tracing: the row's trace context stays null.
      expect(outbox.insertEvents).toHaveBeenCalledWith(manager, [event], {
        traceContext: null,
        publishing: true,
      });
      expect(publisher.publishInBackground).toHaveBeenCalledWith([
        { id: event.id, tenantCode: event.tenantCode, traceContext: null },
      ]);
    });

    it('writes many events of one type in one insert', async () => {
      const events = await sut.run((tx) =>
        tx.emitAll('PERSON_UPDATED', 'ACME', [data, { ...data, personId: 'p-2' }]),
      );
      expect(outbox.insertEvents).toHaveBeenCalledTimes(1);
      expect(publisher.publishInBackground).toHaveBeenCalledWith(
        events.map((e) => ({ id: e.id, tenantCode: 'ACME', traceContext: null })),
      );
    });

    it('refuses data that does not match the catalog, before writing anything', async () => {
      await expect(
        sut.run((tx) => tx.emit('PERSON_UPDATED', 'ACME', { personId: 'p-1', changedFields: [] })),
      ).rejects.toThrow(/does not match its schema/);
      expect(outbox.insertEvents).not.toHaveBeenCalled();
      expect(publisher.publishInBackground).not.toHaveBeenCalled();
    });

    it('publishes nothing when the work fails', async () => {
      await expect(
        sut.run(async (tx) => {
          await tx.emit('PERSON_UPDATED', 'ACME', data);
          throw new Error('conflict');
        }),
      ).rejects.toThrow('conflict');
      expect(publisher.publishInBackground).not.toHaveBeenCalled();
    });

    it('opens the transaction with the isolation level asked for', async () => {
      await sut.run(async () => 1, { isolation: 'SERIALIZABLE' });
      expect(db.transaction).toHaveBeenCalledWith('SERIALIZABLE', expect.any(Function));
    });
  });

  describe('runInOneStatement', () => {
    it('joins the outbox insert of the events to the statement, then publishes them after it', async () => {
      outbox.insertEventsPart.mockReturnValue('INSERT INTO events.outbox …');
      const params: unknown[] = [];
      let joined = '';
      const result = await requestContext.run({ requestId: 'req-8' }, () =>
        sut.runInOneStatement('PERSON_UPDATED', 'ACME', [data], async (part) => {
          joined = part.sql(params, 'changed');
          return 'applied';
        }),
      );
      expect([result, joined]).toEqual(['applied', 'INSERT INTO events.outbox …']);
      const [[events, options, passedParams, guard]] = outbox.insertEventsPart.mock.calls;
      expect(events).toEqual([
        expect.objectContaining({ type: 'PERSON_UPDATED', tenantCode: 'ACME', correlationId: 'req-8', data }),
      ]);
      expect([options, passedParams, guard]).toEqual([
        { traceContext: null, publishing: true },
        params,
        'changed',
      ]);
      expect(publisher.publishInBackground).toHaveBeenCalledWith([
        { id: events[0].id, tenantCode: 'ACME', traceContext: null },
      ]);
      expect(db.transaction).not.toHaveBeenCalled();
    });

    it('publishes nothing when the statement did not apply', async () => {
      const result = await sut.runInOneStatement('PERSON_UPDATED', 'ACME', [data], async () => null);
      expect(result).toBeNull();
      expect(publisher.publishInBackground).not.toHaveBeenCalled();
    });

    it('refuses data that does not match the catalog, before running the statement', async () => {
      const write = jest.fn();
      await expect(
        sut.runInOneStatement('PERSON_UPDATED', 'ACME', [{ personId: 'p-1', changedFields: [] }], write),
      ).rejects.toThrow(/does not match its schema/);
      expect(write).not.toHaveBeenCalled();
    });
  });
});
