import { DataSource } from 'typeorm';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { hashPassword } from '../apps/credentials-api/src/persons/password-hasher';
import { startAppWorld } from './support/app-world';
import {
  authenticatePerson,
  createPerson,
  expectPersonUpdatedEvents,
  storedCredentials,
} from './support/builders/persons';
import { eventually } from './support/http';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

const INVALIDATE = '/api/v1/credentials/invalidate';

describe('credentials: invalidation is atomic and tolerates concurrent writers', () => {
  let stack: TestStack, sut: RunningApp, db: DataSource, acme: TenantFixture;
  beforeAll(async () => ({ stack, sut, db, acme } = await startAppWorld(CredentialsApiApp)));
  afterAll(() => stack.close());

  const invalidate = (body: unknown, fixture = acme) =>
    sut.api.post(INVALIDATE, body, { token: fixture.token });

  it('rolls back: when the event cannot be recorded, the credentials stay valid and no event exists', async () => {
    const tenant = await stack.createTenant();
    const person = await createPerson(sut.api, tenant.token);
    // A database that refuses this tenant's outbox rows makes the transaction fail after the update.
    await db.query(`
      CREATE FUNCTION events.refuse_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'outbox unavailable'; END $$`);
    await db.query(`
      CREATE TRIGGER refuse_outbox BEFORE INSERT ON events.outbox FOR EACH ROW
      WHEN (NEW.tenant_code = '${tenant.tenant.code}') EXECUTE FUNCTION events.refuse_outbox()`);
    try {
      const r = await invalidate(person, tenant);
      expect(r.status).toBe(500);
      expect(r.body.code).toBe('internal_error');
    } finally {
      await db.query(`DROP TRIGGER refuse_outbox ON events.outbox`);
      await db.query(`DROP FUNCTION events.refuse_outbox()`);
    }
    expect(await storedCredentials(db, tenant.tenant.id, person.personId)).toMatchObject({
      status: 'ACTIVE',
      invalidatedAt: null,
    });
    await expectPersonUpdatedEvents(db, tenant, person.personId, 0);
    expect((await authenticatePerson(sut.api, tenant.token, person)).status).toBe(200);
    // And once the outbox works again, the same call succeeds with its one event.
    expect((await invalidate(person, tenant)).status).toBe(200);
    await expectPersonUpdatedEvents(db, tenant, person.personId, 1);
  });

  it('still invalidates when the password was re-hashed between its check and the row lock', async () => {
    const person = await createPerson(sut.api, acme.token);
    const runner = db.createQueryRunner();
    await runner.startTransaction();
    let answer: Awaited<ReturnType<typeof invalidate>>;
    try {
      await runner.query(
        `SELECT 1 FROM credentials.persons WHERE tenant_id = $1 AND person_id = $2 FOR UPDATE`,
        [acme.tenant.id, person.personId],
      );
      const pending = invalidate(person);
      // The password is checked; the invalidation now waits for the row.
      await eventually(
        async () =>
          (
            await db.query(
              // The person's locking read, by its alias: pg_stat_activity cuts long texts at 1 kB, before FROM.
              `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'SELECT "PersonEntity"%'`,
            )
          ).length > 0,
        { timeoutMs: 5000, intervalMs: 20, what: 'the invalidation to wait for the row lock' },
      );
      // As a successful authentication does once the cost was raised: same password, new hash.
      const rehashed = await hashPassword(person.password, {
        PASSWORD_HASH_MEMORY_KIB: 2048,
        PASSWORD_HASH_ITERATIONS: 2,
      });
      await runner.query(
        `UPDATE credentials.persons SET password_hash = $3 WHERE tenant_id = $1 AND person_id = $2`,
        [acme.tenant.id, person.personId, rehashed],
      );
      await runner.commitTransaction();
      answer = await pending;
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
    expect(answer.status).toBe(200);
    expect((await storedCredentials(db, acme.tenant.id, person.personId)).status).toBe('INVALIDATED');
    await expectPersonUpdatedEvents(db, acme, person.personId, 1);
  });
});
