import { DataSource } from 'typeorm';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { hashPassword } from '../apps/credentials-api/src/persons/password-hasher';
import { eventually } from './support/http';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

const INVALIDATE = '/api/v1/credentials/invalidate';
const AUTHENTICATE = '/api/v1/credentials/authenticate';

let seq = 0;
const newPerson = (prefix = 'p') => {
  seq += 1;
  return {
    personId: `${prefix}-${seq}-${Date.now()}`,
    username: `${prefix}.user${seq}`,
    password: `long enough secret ${seq}!`,
  };
};

/** The problem body without what differs per request. */
const stable = (body: Record<string, unknown>) => {
  const { requestId: _r, instance: _i, ...rest } = body;
  return rest;
};

describe('credentials: invalidate and authenticate', () => {
  let stack: TestStack;
  let sut: RunningApp;
  let db: DataSource;
  let acme: TenantFixture;
  let other: TenantFixture;

  beforeAll(async () => {
    stack = await TestStack.create();
    sut = await stack.startApp(CredentialsApiApp);
    db = await stack.db();
    acme = await stack.createTenant();
    other = await stack.createTenant();
  });
  afterAll(() => stack.close());

  const create = async (fixture: TenantFixture, person = newPerson()) => {
    const r = await sut.api.post('/api/v1/persons', person, { token: fixture.token });
    expect(r.status).toBe(201);
    return person;
  };
  const row = async (fixture: TenantFixture, personId: string) =>
    (
      await db.query(
        `SELECT credentials_status, credentials_invalidated_at, password_hash FROM credentials.persons WHERE tenant_id = $1 AND person_id = $2`,
        [fixture.tenant.id, personId],
      )
    )[0];
  const events = async (fixture: TenantFixture, personId: string) =>
    db.query(
      `SELECT tenant_code, data FROM events.outbox WHERE type = 'PERSON_UPDATED' AND tenant_code = $1 AND data->>'personId' = $2 ORDER BY created_at`,
      [fixture.tenant.code, personId],
    );
  const invalidate = (body: unknown, fixture = acme, headers: Record<string, string> = {}) =>
    sut.api.post(INVALIDATE, body, { token: fixture.token, headers });
  const authenticate = (body: unknown, fixture = acme) =>
    sut.api.post(AUTHENTICATE, body, { token: fixture.token });

  describe('POST /api/v1/credentials/invalidate', () => {
    it('invalidates the credentials, records PERSON_UPDATED in the same transaction, and authentication fails from then on', async () => {
      const person = await create(acme);
      expect((await authenticate({ username: person.username, password: person.password })).status).toBe(200);

      const r = await invalidate(person);

      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        personId: person.personId,
        status: 'INVALIDATED',
        invalidatedAt: expect.any(String),
      });
      expect(r.text).not.toContain(person.password);
      const stored = await row(acme, person.personId);
      expect(stored.credentials_status).toBe('INVALIDATED');
      expect(stored.credentials_invalidated_at.toISOString()).toBe(r.body.invalidatedAt);
      const recorded = await events(acme, person.personId);
      expect(recorded).toHaveLength(1);
      expect(recorded[0].tenant_code).toBe(acme.tenant.code);
      expect(recorded[0].data).toEqual({
        personId: person.personId,
        changedFields: ['credentials.status', 'credentials.invalidatedAt'],
        person: { personId: person.personId, firstName: null, lastName: null, email: null, phone: null },
        credentials: { status: 'INVALIDATED', invalidatedAt: r.body.invalidatedAt },
      });
      const read = await sut.api.get(`/api/v1/persons/${person.personId}`, { token: acme.token });
      expect(read.body.credentials).toMatchObject({
        status: 'INVALIDATED',
        invalidatedAt: r.body.invalidatedAt,
      });

      const afterwards = await authenticate({ username: person.username, password: person.password });
      const wrong = await authenticate({ username: person.username, password: 'not the password at all' });
      expect(afterwards.status).toBe(401);
      expect(stable(afterwards.body)).toEqual(stable(wrong.body));
      expect(afterwards.body.code).toBe('invalid_credentials');
    });

    it('is safe to repeat: the same answer and no second event', async () => {
      const person = await create(acme);
      const first = await invalidate(person);
      const second = await invalidate(person);
      const third = await invalidate({ ...person, username: person.username.toUpperCase() });
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      expect(third.body).toEqual(first.body);
      expect(await events(acme, person.personId)).toHaveLength(1);
    });

    it('produces exactly one event for concurrent invalidations', async () => {
      const person = await create(acme);
      // As many as the lockout lets check one username at once (AUTH_MAX_FAILURES, 5 by default).
      const answers = await Promise.all(Array.from({ length: 5 }, () => invalidate(person)));
      expect(answers.map((a) => a.status)).toEqual(Array(5).fill(200));
      expect(new Set(answers.map((a) => a.body.invalidatedAt)).size).toBe(1);
      expect(await events(acme, person.personId)).toHaveLength(1);
    });

    it('gives one uniform answer for unknown person, wrong password, another person’s username, and another tenant’s person; nothing changes', async () => {
      const person = await create(acme);
      const neighbour = await create(acme);
      const foreigner = await create(other);
      const before = await row(acme, person.personId);

      const answers = [
        await invalidate({ ...person, personId: 'no-such-person' }),
        await invalidate({ ...person, password: 'wrong password entirely' }),
        await invalidate({ ...person, username: neighbour.username }),
        await invalidate({ ...person, username: neighbour.username, password: neighbour.password }),
        await invalidate({
          personId: person.personId,
          username: neighbour.username,
          password: person.password,
        }),
        await invalidate(foreigner),
      ];

      for (const answer of answers) {
        expect(answer.status).toBe(422);
        expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(stable(answer.body)).toEqual(stable(answers[0].body));
      }
      expect(answers[0].body).toMatchObject({
        code: 'invalid_credentials',
        type: 'urn:fincore:problem:invalid_credentials',
      });
      expect(await row(acme, person.personId)).toEqual(before);
      expect((await row(acme, neighbour.personId)).credentials_status).toBe('ACTIVE');
      expect((await row(other, foreigner.personId)).credentials_status).toBe('ACTIVE');
      for (const p of [person, neighbour]) expect(await events(acme, p.personId)).toHaveLength(0);
      expect(await events(other, foreigner.personId)).toHaveLength(0);
      // The foreign person is still usable in its own tenant.
      expect(
        (await authenticate({ username: foreigner.username, password: foreigner.password }, other)).status,
      ).toBe(200);
    });

    it('answers in German on request', async () => {
      const r = await invalidate(
        { personId: 'nobody', username: 'nobody', password: 'nothing at all' },
        acme,
        { 'accept-language': 'de' },
      );
      expect(r.status).toBe(422);
      expect(r.body.title).toBe('Ungültige Zugangsdaten');
    });

    it.each([
      ['personId missing', { username: 'u', password: 'p' }, ['personId']],
      ['username missing', { personId: 'x', password: 'p' }, ['username']],
      ['password missing', { personId: 'x', username: 'u' }, ['password']],
      ['everything missing', {}, ['personId', 'username', 'password']],
      ['personId a number', { personId: 42, username: 'u', password: 'p' }, ['personId']],
      ['username null', { personId: 'x', username: null, password: 'p' }, ['username']],
      ['password an array', { personId: 'x', username: 'u', password: ['p'] }, ['password']],
      ['empty strings', { personId: '', username: '', password: '' }, ['personId', 'username', 'password']],
      ['username too long', { personId: 'x', username: 'u'.repeat(257), password: 'p' }, ['username']],
      ['password too long', { personId: 'x', username: 'u', password: 'p'.repeat(1025) }, ['password']],
      ['personId too long', { personId: 'x'.repeat(65), username: 'u', password: 'p' }, ['personId']],
      ['an unknown field', { personId: 'x', username: 'u', password: 'p', pasword: 'typo' }, ['']],
      ['personId with a NUL character', { personId: 'x\u0000', username: 'u', password: 'p' }, ['personId']],
      ['username with a NUL character', { personId: 'x', username: 'u\u0000', password: 'p' }, ['username']],
    ])('answers 400 with errors[] when %s, and changes nothing', async (_case, body, fields) => {
      const person = await create(acme);
      const withRealPerson = Object.fromEntries(
        Object.entries(body).map(([k, v]) => [k, k === 'personId' && v === 'x' ? person.personId : v]),
      );
      const r = await invalidate(withRealPerson);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('validation_failed');
      expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([...fields].sort());
      expect((await row(acme, person.personId)).credentials_status).toBe('ACTIVE');
      expect(await events(acme, person.personId)).toHaveLength(0);
    });

    it('accepts the longest allowed password (1,024 characters)', async () => {
      const r = await invalidate({
        personId: 'nobody',
        username: 'u'.repeat(256),
        password: 'p'.repeat(1024),
      });
      expect(r.status).toBe(422);
    });

    it('needs the credentials:write scope', async () => {
      const person = await create(acme);
      const reader = await acme.tokenWith(['persons:read', 'credentials:authenticate']);
      const r = await sut.api.post(INVALIDATE, person, { token: reader });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('insufficient_scope');
      expect((await row(acme, person.personId)).credentials_status).toBe('ACTIVE');
      const writer = await acme.tokenWith(['credentials:write']);
      expect((await sut.api.post(INVALIDATE, person, { token: writer })).status).toBe(200);
    });

    it('rolls back: when the event cannot be recorded, the credentials stay valid and no event exists', async () => {
      const tenant = await stack.createTenant();
      const person = await create(tenant);
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
      expect(await row(tenant, person.personId)).toMatchObject({
        credentials_status: 'ACTIVE',
        credentials_invalidated_at: null,
      });
      expect(await events(tenant, person.personId)).toHaveLength(0);
      expect(
        (await authenticate({ username: person.username, password: person.password }, tenant)).status,
      ).toBe(200);
      // And once the outbox works again, the same call succeeds with its one event.
      expect((await invalidate(person, tenant)).status).toBe(200);
      expect(await events(tenant, person.personId)).toHaveLength(1);
    });

    it('still invalidates when the password was re-hashed between its check and the row lock', async () => {
      const person = await create(acme);
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
                `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%credentials%persons%FOR UPDATE%'`,
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
      expect((await row(acme, person.personId)).credentials_status).toBe('INVALIDATED');
      expect(await events(acme, person.personId)).toHaveLength(1);
    });

    it('refuses the old credentials once new ones are set', async () => {
      const person = await create(acme);
      expect((await invalidate(person)).status).toBe(200);
      const fresh = { username: person.username, password: 'a completely new passphrase' };
      expect(
        (await sut.api.put(`/api/v1/persons/${person.personId}/credentials`, fresh, { token: acme.token }))
          .status,
      ).toBe(200);
      expect((await invalidate(person)).status).toBe(422);
      expect((await row(acme, person.personId)).credentials_status).toBe('ACTIVE');
      expect((await authenticate(fresh)).status).toBe(200);
    });
  });

  describe('POST /api/v1/credentials/authenticate', () => {
    it('names the person for valid credentials, with the username in any case', async () => {
      const person = await create(acme);
      const r = await authenticate({ username: person.username.toUpperCase(), password: person.password });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        authenticated: true,
        personId: person.personId,
        authenticatedAt: expect.any(String),
      });
    });

    it('answers one 401 body for a wrong password, an unknown username and another tenant’s person', async () => {
      const person = await create(acme);
      const foreigner = await create(other);
      const answers = [
        await authenticate({ username: person.username, password: 'definitely not it' }),
        await authenticate({ username: 'nobody.here', password: person.password }),
        await authenticate({ username: foreigner.username, password: foreigner.password }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(401);
        expect(stable(answer.body)).toEqual(stable(answers[0].body));
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
      const person = await create(acme);
      const token = await acme.tokenWith(['credentials:write']);
      expect(
        (
          await sut.api.post(
            AUTHENTICATE,
            { username: person.username, password: person.password },
            { token },
          )
        ).status,
      ).toBe(403);
    });

    it('re-hashes with the configured cost once it was raised, and never lowers it', async () => {
      const person = await create(acme);
      expect((await row(acme, person.personId)).password_hash).toContain('m=1024,t=1');
      const stronger = await stack.startApp(CredentialsApiApp, {
        PASSWORD_HASH_MEMORY_KIB: '2048',
        PASSWORD_HASH_ITERATIONS: '2',
      });
      expect(
        (
          await stronger.api.post(
            AUTHENTICATE,
            { username: person.username, password: person.password },
            { token: acme.token },
          )
        ).status,
      ).toBe(200);
      const upgraded = (await row(acme, person.personId)).password_hash;
      expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=2048,t=2,p=1\$/);
      // The weaker setting of the first app keeps the stronger hash, and both still verify it.
      expect((await authenticate({ username: person.username, password: person.password })).status).toBe(200);
      expect((await row(acme, person.personId)).password_hash).toBe(upgraded);
      expect(await events(acme, person.personId)).toHaveLength(0);
      await stronger.close();
    });
  });
});

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

  const create = async () => {
    const person = newPerson('lock');
    expect((await a.api.post('/api/v1/persons', person, { token: fixture.token })).status).toBe(201);
    return person;
  };

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
    const db = await stack.db();
    const [stored] = await db.query(
      `SELECT credentials_status FROM credentials.persons WHERE person_id = $1`,
      [person.personId],
    );
    expect(stored.credentials_status).toBe('ACTIVE');
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
    const person = newPerson('twin');
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
