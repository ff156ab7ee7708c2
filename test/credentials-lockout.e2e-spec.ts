import type Redis from 'ioredis';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { LoginThrottle } from '../apps/credentials-api/src/persons/login-throttle';
import { authenticatePerson, createPerson, storedCredentials } from './support/builders/persons';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

const INVALIDATE = '/api/v1/credentials/invalidate';

describe('credentials: lockout after repeated failures, shared across replicas', () => {
  let stack: TestStack;
  let a: RunningApp;
  let b: RunningApp;
  let fixture: TenantFixture;
  let redis: Redis;
  // An hour: no machine is slow enough for a window or lock to run out during a test; the test
  // lets time pass for the throttle itself (see passTime).
  const LOCKOUT_SECONDS = 3600;

  beforeAll(async () => {
    stack = await TestStack.create({ AUTH_MAX_FAILURES: '3', AUTH_LOCKOUT_SECONDS: String(LOCKOUT_SECONDS) });
    a = await stack.startApp(CredentialsApiApp);
    b = await stack.startApp(CredentialsApiApp);
    fixture = await stack.createTenant();
    redis = stack.redis();
  });
  afterAll(() => stack.close());

  const create = () => createPerson(a.api, fixture.token, {}, 'lock');
  /** Tries a username and password on one replica, as the tenant of the lockout unless told. */
  const authenticate = (
    app: RunningApp,
    credentials: { username: string; password: string },
    tenant = fixture,
  ) => authenticatePerson(app.api, tenant.token, credentials);

  /**
   * Lets `seconds` pass for the username's failure window and lock, which expire by their Redis
   * TTL: each TTL is shortened by that much, and a key whose TTL is shorter expires at once.
   */
  const passTime = async (username: string, seconds: number) => {
    const throttle = a.app.get(LoginThrottle);
    const keys = throttle['keys'](fixture.tenant.id, username);
    for (const key of [keys.failures, keys.lock]) {
      const ttl = await redis.pttl(key);
      if (ttl === -1) throw new Error(`${key} never expires`);
      if (ttl <= seconds * 1000) await redis.del(key);
      else await redis.pexpire(key, ttl - seconds * 1000);
    }
  };

  it('locks the username after the failures counted on both replicas, answers 429 with Retry-After even to the right password, and unlocks after the lockout', async () => {
    const person = await create();
    const bystander = await create();
    const wrong = { username: person.username, password: 'wrong guess number' };
    const statuses = [];
    for (const app of [a, b, a]) statuses.push((await authenticate(app, wrong)).status);
    expect(statuses).toEqual([401, 401, 401]);

    const locked = await authenticate(b, person);
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('credentials_locked');
    // The lock runs for the configured time, counted from the third failure.
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(LOCKOUT_SECONDS / 2);
    expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(LOCKOUT_SECONDS);
    // The lock also guards the other password check, invalidation, which changes nothing meanwhile.
    const invalidation = await a.api.post(INVALIDATE, person, { token: fixture.token });
    expect(invalidation.status).toBe(429);
    const stored = await storedCredentials(await stack.db(), fixture.tenant.id, person.personId);
    expect(stored.status).toBe('ACTIVE');
    // Other usernames are not affected.
    expect((await authenticate(a, bystander)).status).toBe(200);

    // Shortly before the lock ends it still holds; once its time has passed, the password works again.
    await passTime(person.username, LOCKOUT_SECONDS - 60);
    expect((await authenticate(a, person)).status).toBe(429);
    await passTime(person.username, 60);
    expect((await authenticate(a, person)).status).toBe(200);
    expect((await authenticate(b, person)).status).toBe(200);
  });

  it('verifies no more passwords than the limit for a burst of parallel guesses, on both replicas', async () => {
    const person = await create();
    const guesses = Array.from({ length: 12 }, (_, i) =>
      authenticate([a, b][i % 2], { username: person.username, password: `parallel guess ${i}` }),
    );
    const statuses = (await Promise.all(guesses)).map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(3).fill(401), ...Array(9).fill(429)]);
    // The third failure locked the username: the right password is refused too.
    const right = await authenticate(a, person);
    expect(right.status).toBe(429);
  });

  it('locks unknown usernames alike, so a lock reveals nothing', async () => {
    const guess = { username: 'ghost.user', password: 'any guess at all' };
    for (let i = 0; i < 3; i++) expect((await authenticate(a, guess)).status).toBe(401);
    expect((await authenticate(b, guess)).status).toBe(429);
  });

  it('counts failed invalidations towards the lock, and a success clears the failures', async () => {
    const person = await create();
    const wrong = { ...person, password: 'wrong guess number' };
    expect((await a.api.post(INVALIDATE, wrong, { token: fixture.token })).status).toBe(422);
    expect((await authenticate(b, { username: person.username, password: 'another wrong one' })).status).toBe(
      401,
    );
    expect((await authenticate(a, person)).status).toBe(200);
    // Two more failures stay below the limit of three because the success reset the count.
    expect((await a.api.post(INVALIDATE, wrong, { token: fixture.token })).status).toBe(422);
    expect((await a.api.post(INVALIDATE, wrong, { token: fixture.token })).status).toBe(422);
    expect((await b.api.post(INVALIDATE, person, { token: fixture.token })).status).toBe(200);
  });

  it('keeps tenants apart: the same username locked in one tenant is free in another', async () => {
    const second = await stack.createTenant();
    const person = await createPerson(a.api, fixture.token, {}, 'twin');
    await createPerson(a.api, second.token, person);
    const wrong = { username: person.username, password: 'wrong guess number' };
    for (let i = 0; i < 3; i++) await authenticate(a, wrong);
    expect((await authenticate(a, person)).status).toBe(429);
    expect((await authenticate(a, person, second)).status).toBe(200);
  });
});
