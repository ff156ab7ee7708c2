import { DataSource } from 'typeorm';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { startAppWorld } from './support/app-world';
import {
  authenticatePerson,
  createPerson,
  expectPersonUpdatedEvents,
  storedCredentials,
} from './support/builders/persons';
import { stableProblem } from './support/problems';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

const AUTHENTICATE = '/api/v1/credentials/authenticate';

describe('credentials: POST /api/v1/credentials/authenticate', () => {
  let stack: TestStack, sut: RunningApp, db: DataSource, acme: TenantFixture, other: TenantFixture;
  beforeAll(async () => ({ stack, sut, db, acme, other } = await startAppWorld(CredentialsApiApp)));
  afterAll(() => stack.close());

  const authenticate = (body: unknown, fixture = acme) =>
    sut.api.post(AUTHENTICATE, body, { token: fixture.token });

  it('names the person for valid credentials, with the username in any case', async () => {
    const person = await createPerson(sut.api, acme.token);
    const r = await authenticate({ username: person.username.toUpperCase(), password: person.password });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      authenticated: true,
      personId: person.personId,
      authenticatedAt: expect.any(String),
    });
  });

  it('answers one 401 body for a wrong password, an unknown username and another tenant’s person', async () => {
    const person = await createPerson(sut.api, acme.token);
    const foreigner = await createPerson(sut.api, other.token);
    const answers = [
      await authenticate({ username: person.username, password: 'definitely not it' }),
      await authenticate({ username: 'nobody.here', password: person.password }),
      await authenticate({ username: foreigner.username, password: foreigner.password }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(stableProblem(answer.body)).toEqual(stableProblem(answers[0].body));
    }
    expect(answers[0].body.code).toBe('invalid_credentials');
  });

  it.each([
    ['username missing', { password: 'p' }, ['username']],
    ['password a number', { username: 'u', password: 1234 }, ['password']],
    ['username too long', { username: 'u'.repeat(257), password: 'p' }, ['username']],
    ['username with a NUL character', { username: 'u\u0000', password: 'p' }, ['username']],
  ])('answers 400 when %s', async (_case, body, fields) => {
    const r = await authenticate(body);
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { field: string }) => e.field)).toEqual(fields);
  });

  it('needs the credentials:authenticate scope', async () => {
    const person = await createPerson(sut.api, acme.token);
    const token = await acme.tokenWith(['credentials:write']);
    expect((await authenticatePerson(sut.api, token, person)).status).toBe(403);
  });

  it('re-hashes with the configured cost once it was raised, and never lowers it', async () => {
    const person = await createPerson(sut.api, acme.token);
    const passwordHash = async () =>
      (await storedCredentials(db, acme.tenant.id, person.personId)).passwordHash;
    expect(await passwordHash()).toContain('m=1024,t=1');
    const stronger = await stack.startApp(CredentialsApiApp, {
      PASSWORD_HASH_MEMORY_KIB: '2048',
      PASSWORD_HASH_ITERATIONS: '2',
    });
    expect((await authenticatePerson(stronger.api, acme.token, person)).status).toBe(200);
    const upgraded = await passwordHash();
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=2048,t=2,p=1\$/);
    // The weaker setting of the first app keeps the stronger hash, and both still verify it.
    expect((await authenticatePerson(sut.api, acme.token, person)).status).toBe(200);
    expect(await passwordHash()).toBe(upgraded);
    await expectPersonUpdatedEvents(db, acme, person.personId, 0);
    await stronger.close();
  });
});
