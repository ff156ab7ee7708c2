import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { createPerson, personInput, storedCredentials } from './support/builders/persons';
import { eventually } from './support/http';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

const INVALIDATE = '/api/v1/credentials/invalidate';
const AUTHENTICATE = '/api/v1/credentials/authenticate';

describe('credentials: lockout after repeated failures, shared across replicas', () => {
  let stack: TestStack;
  let a: RunningApp;
  let b: RunningApp;
  let fixture: TenantFixture;
  const LOCKOUT_SECONDS = 2;

  beforeAll(async () => {
    stack = await TestStack.create({ AUTH_MAX_FAILURES: '3', AUTH_LOCKOUT_SECONDS: String(LOCKOUT_SECONDS) });
    a = await stack.startApp(CredentialsApiApp);
    b = await stack.startApp(CredentialsApiApp);
    fixture = await stack.createTenant();
  });
  afterAll(() => stack.close());

  const create = () => createPerson(a.api, fixture.token, {}, 'lock');

  it('locks the username after the failures counted on both replicas, answers 429 with Retry-After even to the right password, and unlocks after the lockout', async () => {
    const person = await create();
    const bystander = await create();
    const wrong = { username: person.username, password: 'wrong guess number' };
    const statuses = [];
    for (const app of [a, b, a])
      statuses.push((await app.api.post(AUTHENTICATE, wrong, { token: fixture.token })).status);
    expect(statuses).toEqual([401, 401, 401]);

    const locked = await b.api.post(
      AUTHENTICATE,
      { username: person.username, password: person.password },
      { token: fixture.token },
    );
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('credentials_locked');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(LOCKOUT_SECONDS);
    // The lock also guards the other password check, invalidation, which changes nothing meanwhile.
    const invalidation = await a.api.post(INVALIDATE, person, { token: fixture.token });
    expect(invalidation.status).toBe(429);
    const stored = await storedCredentials(await stack.db(), fixture.tenant.id, person.personId);
    expect(stored.status).toBe('ACTIVE');
    // Other usernames are not affected.
    expect(
      (
        await a.api.post(
          AUTHENTICATE,
          { username: bystander.username, password: bystander.password },
          { token: fixture.token },
        )
      ).status,
    ).toBe(200);

    await eventually(
      async () =>
        (
          await a.api.post(
            AUTHENTICATE,
            { username: person.username, password: person.password },
            { token: fixture.token },
          )
        ).status === 200,
      { timeoutMs: (LOCKOUT_SECONDS + 3) * 1000, intervalMs: 250, what: 'the lock to expire' },
    );
  });

  it('verifies no more passwords than the limit for a burst of parallel guesses, on both replicas', async () => {
    const person = await create();
    const guesses = Array.from({ length: 12 }, (_, i) =>
      [a, b][i % 2].api.post(
        AUTHENTICATE,
        { username: person.username, password: `parallel guess ${i}` },
        { token: fixture.token },
      ),
    );
    const statuses = (await Promise.all(guesses)).map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(3).fill(401), ...Array(9).fill(429)]);
    // The third failure locked the username: the right password is refused too.
    const right = await a.api.post(
      AUTHENTICATE,
      { username: person.username, password: person.password },
      { token: fixture.token },
    );
    expect(right.status).toBe(429);
  });

  it('locks unknown usernames alike, so a lock reveals nothing', async () => {
    const guess = { username: 'ghost.user', password: 'any guess at all' };
    for (let i = 0; i < 3; i++)
      expect((await a.api.post(AUTHENTICATE, guess, { token: fixture.token })).status).toBe(401);
    expect((await b.api.post(AUTHENTICATE, guess, { token: fixture.token })).status).toBe(429);
  });

  it('counts failed invalidations towards the lock, and a success clears the failures', async () => {
    const person = await create();
    const wrong = { ...person, password: 'wrong guess number' };
    expect((await a.api.post(INVALIDATE, wrong, { token: fixture.token })).status).toBe(422);
    expect(
      (
        await b.api.post(
          AUTHENTICATE,
          { username: person.username, password: 'another wrong one' },
          { token: fixture.token },
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await a.api.post(
          AUTHENTICATE,
          { username: person.username, password: person.password },
          { token: fixture.token },
        )
      ).status,
    ).toBe(200);
    // Two more failures stay below the limit of three because the success reset the count.
    expect((await a.api.post(INVALIDATE, wrong, { token: fixture.token })).status).toBe(422);
    expect((await a.api.post(INVALIDATE, wrong, { token: fixture.token })).status).toBe(422);
    expect((await b.api.post(INVALIDATE, person, { token: fixture.token })).status).toBe(200);
  });

  it('keeps tenants apart: the same username locked in one tenant is free in another', async () => {
    const second = await stack.createTenant();
    const person = personInput({}, 'twin');
    expect((await a.api.post('/api/v1/persons', person, { token: fixture.token })).status).toBe(201);
    expect((await a.api.post('/api/v1/persons', person, { token: second.token })).status).toBe(201);
    const wrong = { username: person.username, password: 'wrong guess number' };
    for (let i = 0; i < 3; i++) await a.api.post(AUTHENTICATE, wrong, { token: fixture.token });
    expect(
      (
        await a.api.post(
          AUTHENTICATE,
          { username: person.username, password: person.password },
          { token: fixture.token },
        )
      ).status,
    ).toBe(429);
    expect(
      (
        await a.api.post(
          AUTHENTICATE,
          { username: person.username, password: person.password },
          { token: second.token },
        )
      ).status,
    ).toBe(200);
  });
});
