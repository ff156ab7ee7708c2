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

  describe('changeAsReadOrLocked', () => {
    const subject = { personId: 'p-1' };
    const change = (write: (outbox: readonly unknown[]) => Promise<string | null>, planned = true) => ({
      read: jest.fn(async () => subject),
      plan: jest.fn(() =>
        planned ? { type: 'PERSON_UPDATED' as const, tenantCode: 'ACME', data: [data], write } : undefined,
      ),
      locked: jest.fn(async () => 'locked'),
    });

    it('writes the change with the rows of its events in one statement, then publishes them after it', async () => {
      let rows: readonly unknown[] = [];
      const planned = change(async (outbox) => {
        rows = outbox;
        return 'applied';
      });
      const result = await requestContext.run({ requestId: 'req-8' }, () =>
        sut.changeAsReadOrLocked(planned),
      );
      expect(result).toBe('applied');
      expect(planned.plan).toHaveBeenCalledWith(subject);
      const [traceContext, [id], types, tenants, , correlations, [json]] = rows as unknown[][];
      expect([traceContext, types, tenants, correlations]).toEqual([
        null,
        ['PERSON_UPDATED'],
        ['ACME'],
        ['req-8'],
      ]);
      expect(JSON.parse(json as string)).toEqual(data);
      expect(publisher.publishInBackground).toHaveBeenCalledWith([
        { id, tenantCode: 'ACME', traceContext: null },
      ]);
      expect(db.transaction).not.toHaveBeenCalled();
      expect(planned.locked).not.toHaveBeenCalled();
    });

    it('publishes nothing and runs the change locked when the statement did not apply', async () => {
      const planned = change(async () => null);
      await expect(sut.changeAsReadOrLocked(planned)).resolves.toBe('locked');
      expect(planned.locked).toHaveBeenCalledTimes(1);
      expect(publisher.publishInBackground).toHaveBeenCalledWith([]);
    });

    it('runs the change locked when there is no subject or the plan leaves it to the lock', async () => {
      const unplanned = change(jest.fn(), false);
      await expect(sut.changeAsReadOrLocked(unplanned)).resolves.toBe('locked');
      const missing = { ...change(jest.fn()), read: jest.fn(async () => null) };
      await expect(sut.changeAsReadOrLocked(missing)).resolves.toBe('locked');
      expect(missing.plan).not.toHaveBeenCalled();
    });

    it('refuses data that does not match the catalog, before running the statement', async () => {
      const write = jest.fn();
      const planned = change(write);
      planned.plan.mockReturnValue({
        type: 'PERSON_UPDATED',
        tenantCode: 'ACME',
        data: [{ personId: 'p-1', changedFields: [] }],
        write,
      });
      await expect(sut.changeAsReadOrLocked(planned)).rejects.toThrow(/does not match its schema/);
      expect(write).not.toHaveBeenCalled();
    });
  });
});
