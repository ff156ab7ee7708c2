import { DataSource } from 'typeorm';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { startAppWorld } from './support/app-world';
import {
  authenticatePerson,
  createPerson,
  expectPersonUpdatedEvents,
  holdPersonRow,
  PersonInput,
  storedCredentials,
} from './support/builders/persons';
import { expectStatus } from './support/http';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

const INVALIDATE = '/api/v1/credentials/invalidate';

/**
 * Invalidation against the other writers of a person's credentials. The test holds the person's
 * row, lets the racing requests queue behind it in a chosen order, then lets them go.
 */
describe('credentials: invalidation racing other requests', () => {
  let stack: TestStack, sut: RunningApp, db: DataSource, acme: TenantFixture;
  beforeAll(async () => ({ stack, sut, db, acme } = await startAppWorld(CredentialsApiApp)));
  afterAll(() => stack.close());

  const invalidate = (person: PersonInput, app = sut) =>
    app.api.post(INVALIDATE, person, { token: acme.token });
  const stored = (person: PersonInput) => storedCredentials(db, acme.tenant.id, person.personId);
  /** Starts `first`, and `second` once `first` waits for the held row; then releases the row. */
  const race = async <A, B>(person: PersonInput, first: () => Promise<A>, second: () => Promise<B>) => {
    const row = await holdPersonRow(db, acme.tenant.id, person.personId);
    const firstAnswer = first();
    const secondAnswer = row.waiters(1).then(second);
    await row.waiters(2).finally(() => row.release());
    return Promise.all([firstAnswer, secondAnswer]);
  };

  it('refuses an invalidation with the old password that ran after new credentials were set: they stay active', async () => {
    const person = await createPerson(sut.api, acme.token);
    expectStatus(await invalidate(person), 200, 'invalidate');
    const fresh = { username: person.username, password: 'a fresh passphrase here' };

    const [set, late] = await race(
      person,
      () => sut.api.put(`/api/v1/persons/${person.personId}/credentials`, fresh, { token: acme.token }),
      () => invalidate(person),
    );

    expect(set.status).toBe(200);
    expect(late.status).toBe(422);
    expect(late.body.code).toBe('invalid_credentials');
    expect(await stored(person)).toMatchObject({ status: 'ACTIVE', invalidatedAt: null });
    await expectPersonUpdatedEvents(db, acme, person.personId, 2); // the first invalidation and the setting
    expect((await authenticatePerson(sut.api, acme.token, fresh)).status).toBe(200);
    expect((await authenticatePerson(sut.api, acme.token, person)).status).toBe(401);
  });

  it('keeps the invalidation when an authentication that proved the password before it re-hashes after it', async () => {
    const person = await createPerson(sut.api, acme.token);
    const stronger = await stack.startApp(CredentialsApiApp, {
      PASSWORD_HASH_MEMORY_KIB: '2048',
      PASSWORD_HASH_ITERATIONS: '2',
    });
    const before = await stored(person);

    const [invalidated, authenticated] = await race(
      person,
      () => invalidate(person),
      () => authenticatePerson(stronger.api, acme.token, person),
    );

    expect(invalidated.status).toBe(200);
    // It read the credentials while they were still active; its late re-hash must change nothing.
    expect(authenticated.status).toBe(200);
    expect(await stored(person)).toEqual({
      status: 'INVALIDATED',
      invalidatedAt: new Date(invalidated.body.invalidatedAt),
      passwordHash: before.passwordHash,
    });
    await expectPersonUpdatedEvents(db, acme, person.personId, 1);
    for (const app of [sut, stronger]) {
      expect((await authenticatePerson(app.api, acme.token, person)).status).toBe(401);
    }
    await stronger.close();
  });

  it('gives two replicas invalidating at once the same answer, with one event', async () => {
    const replica = await stack.startApp(CredentialsApiApp);
    const person = await createPerson(sut.api, acme.token);

    const answers = await race(
      person,
      () => invalidate(person, sut),
      () => invalidate(person, replica),
    );

    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[1].body).toEqual(answers[0].body);
    expect(await stored(person)).toMatchObject({
      status: 'INVALIDATED',
      invalidatedAt: new Date(answers[0].body.invalidatedAt),
    });
    await expectPersonUpdatedEvents(db, acme, person.personId, 1);
    await replica.close();
  });
});
