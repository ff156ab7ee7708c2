import { DataSource } from 'typeorm';
import {
  authenticatePerson,
  createPerson,
  holdPersonRow,
  personInput,
  PersonInput,
} from './support/builders/persons';
import { markedPerson, markersIn } from './support/erasure';
import { ApiClient, expectStatus } from './support/http';
import { SpawnedApp, TenantFixture, TestStack } from './support/stack';

/**
 * What the credentials API logs, read from the real process output at its most verbose level,
 * while it handles every flow that carries a password or its hash.
 */
describe('credentials-api: logs', () => {
  let stack: TestStack, app: SpawnedApp, api: ApiClient, db: DataSource, acme: TenantFixture;
  beforeAll(async () => {
    stack = await TestStack.create();
    app = await stack.spawnApp('credentials-api', { LOG_LEVEL: 'trace' });
    api = new ApiClient(app.url);
    db = await stack.db();
    acme = await stack.createTenant();
  });
  afterAll(() => stack.close());

  const invalidate = (person: Pick<PersonInput, 'personId' | 'username' | 'password'>) =>
    api.post('/api/v1/credentials/invalidate', person, { token: acme.token });
  const setCredentials = (person: PersonInput, body: { username: string; password: string }) =>
    api.put(`/api/v1/persons/${person.personId}/credentials`, body, { token: acme.token });

  it('never logs a password or a hash, also when a username conflict makes a write fail', async () => {
    const passwords: string[] = [];
    const person = await createPerson(api, acme.token);
    const neighbour = await createPerson(api, acme.token);
    passwords.push(person.password, neighbour.password);
    expect((await authenticatePerson(api, acme.token, person)).status).toBe(200);
    const wrong = { ...person, password: 'a wrong guess of a password' };
    passwords.push(wrong.password);
    expect((await authenticatePerson(api, acme.token, wrong)).status).toBe(401);
    expect((await invalidate(wrong)).status).toBe(422);
    for (const p of [person, neighbour]) expectStatus(await invalidate(p), 200, 'invalidate');

    // A username taken before the check, and one taken while the write waited for the row: that
    // write fails in the database, and the failed statement is logged.
    const taken = { username: neighbour.username.toUpperCase(), password: 'a fresh passphrase here' };
    const claimed = { username: `${person.username}.claimed`, password: 'another fresh passphrase' };
    passwords.push(taken.password, claimed.password);
    expect((await setCredentials(person, taken)).body.code).toBe('username_taken');
    const row = await holdPersonRow(db, acme.tenant.id, person.personId);
    const late = setCredentials(person, claimed);
    await row.waiters(1).finally(async () => {
      expectStatus(await setCredentials(neighbour, claimed), 200, 'set the neighbour’s credentials');
      await row.release();
    });
    expect((await late).body.code).toBe('username_taken');
    const renewed = { username: person.username, password: 'the renewed passphrase' };
    passwords.push(renewed.password);
    expectStatus(await setCredentials(person, renewed), 200, 'set credentials');
    expect((await authenticatePerson(api, acme.token, renewed)).status).toBe(200);

    // Concurrent creations of one username: all but one lose the race to the unique key.
    const username = `race.log.${Date.now()}`;
    const racers = Array.from({ length: 4 }, () => personInput({ username }));
    passwords.push(...racers.map((r) => r.password));
    const answers = await Promise.all(
      racers.map((r) => api.post('/api/v1/persons', r, { token: acme.token })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);

    const hashes: string[] = (
      await db.query(`SELECT password_hash FROM credentials.persons WHERE tenant_id = $1`, [acme.tenant.id])
    ).map((r: { password_hash: string }) => r.password_hash);
    const output = app.output();
    // The capture is real: the process's own lines, and the failed statement at error level.
    expect(output).toContain(`"msg":"credentials-api listening on ${app.url}"`);
    expect(output).toMatch(/Query failed: .*persons_tenant_username.*; statement: UPDATE/);
    expect(hashes.length).toBeGreaterThanOrEqual(3);
    expect(output).not.toContain('$argon2');
    for (const secret of [...passwords, ...hashes.map((h) => h.split('$').pop()!)]) {
      expect(output).not.toContain(secret);
    }
  });

  it('never logs a profile field: not on creation, change, refusal, conflict or erasure', async () => {
    const { person, markers } = markedPerson();
    const path = `/api/v1/persons/${person.personId}`;
    const token = acme.token;
    expectStatus(await api.post('/api/v1/persons', person, { token }), 201, 'create');
    // A duplicate, and a refused change whose values are logged nowhere either.
    expect((await api.post('/api/v1/persons', person, { token })).body.code).toBe('person_exists');
    const refused = { firstName: `${person.firstName}\u0000`, email: `not-an-email ${person.email}` };
    expect((await api.patch(path, refused, { token })).status).toBe(400);
    const changed = { lastName: `${person.lastName}b`, email: `b${person.email}`, phone: null };
    markers.push(changed.lastName, changed.email);
    expectStatus(await api.patch(path, changed, { token }), 200, 'change');
    expectStatus(await api.post(`${path}/erase`, undefined, { token }), 200, 'erase');
    expect((await api.patch(path, { firstName: person.firstName }, { token })).status).toBe(410);

    const output = app.output();
    expect(output).toContain(`"path":"${path}/erase"`);
    expect(markersIn(output, markers)).toEqual([]);
  });
});
