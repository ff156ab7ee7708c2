import { DataSource } from 'typeorm';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { startAppWorld } from './support/app-world';
import { authenticatePerson, createPerson, expectPersonUpdatedEvents } from './support/builders/persons';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

describe('persons: PUT /api/v1/persons/{personId}/credentials', () => {
  let stack: TestStack, sut: RunningApp, db: DataSource, acme: TenantFixture, other: TenantFixture;
  beforeAll(async () => ({ stack, sut, db, acme, other } = await startAppWorld(CredentialsApiApp)));
  afterAll(() => stack.close());

  describe('PUT /api/v1/persons/{personId}/credentials', () => {
    const put = (personId: string, body: unknown, fixture = acme) =>
      sut.api.put(`/api/v1/persons/${personId}/credentials`, body, { token: fixture.token });

    it('needs credentials:write as well as persons:write (403 otherwise), changing nothing', async () => {
      const person = await createPerson(sut.api, acme.token);
      await sut.api.post('/api/v1/credentials/invalidate', person, { token: acme.token });
      const profileEditor = await acme.tokenWith(['persons:write', 'persons:read']);
      const r = await sut.api.put(
        `/api/v1/persons/${person.personId}/credentials`,
        { username: person.username, password: 'a brand new passphrase 42' },
        { token: profileEditor },
      );
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('insufficient_scope');
      const stored = (await sut.api.get(`/api/v1/persons/${person.personId}`, { token: acme.token })).body;
      expect(stored.credentials.status).toBe('INVALIDATED');
    });

    it('refuses while the credentials are active (409), changing nothing', async () => {
      const person = await createPerson(sut.api, acme.token);
      const r = await put(person.personId, {
        username: person.username,
        password: 'another long passphrase',
      });
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('credentials_active');
      expect((await authenticatePerson(sut.api, acme.token, person)).status).toBe(200);
      await expectPersonUpdatedEvents(db, acme, person.personId, 0);
    });

    it('sets new credentials after an invalidation: active at once, old ones refused, PERSON_UPDATED emitted', async () => {
      const person = await createPerson(sut.api, acme.token);
      expect(
        (await sut.api.post('/api/v1/credentials/invalidate', person, { token: acme.token })).status,
      ).toBe(200);
      const fresh = { username: `${person.username}.new`, password: 'a fresh passphrase here' };

      const r = await put(person.personId, fresh);

      expect(r.status).toBe(200);
      expect(r.body.credentials).toMatchObject({
        username: fresh.username,
        status: 'ACTIVE',
        invalidatedAt: null,
      });
      const recorded = await expectPersonUpdatedEvents(db, acme, person.personId, 2);
      expect(recorded[1].data).toMatchObject({
        personId: person.personId,
        changedFields: [
          'credentials.status',
          'credentials.invalidatedAt',
          'credentials.username',
          'credentials.password',
        ],
        credentials: { status: 'ACTIVE', invalidatedAt: null },
      });
      expect(JSON.stringify(recorded[1].data)).not.toContain(fresh.password);
      expect((await authenticatePerson(sut.api, acme.token, fresh)).status).toBe(200);
      expect((await authenticatePerson(sut.api, acme.token, person)).status).toBe(401);
    });

    it('lets one of two concurrent settings win, with one event; the other gets 409 credentials_active', async () => {
      const person = await createPerson(sut.api, acme.token);
      await sut.api.post('/api/v1/credentials/invalidate', person, { token: acme.token });
      const answers = await Promise.all([
        put(person.personId, { username: person.username, password: 'first new passphrase' }),
        put(person.personId, { username: person.username, password: 'second new passphrase' }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body.code).toBe('credentials_active');
      await expectPersonUpdatedEvents(db, acme, person.personId, 2); // the invalidation and one setting
    });

    it('refuses the invalidated password (422), a weak one (422), a taken username (409) and another tenant (404), changing nothing', async () => {
      const person = await createPerson(sut.api, acme.token);
      const neighbour = await createPerson(sut.api, acme.token);
      await sut.api.post('/api/v1/credentials/invalidate', person, { token: acme.token });

      const reused = await put(person.personId, { username: person.username, password: person.password });
      expect(reused.status).toBe(422);
      expect(reused.body.code).toBe('password_reused');
      const weak = await put(person.personId, { username: person.username, password: 'weak' });
      expect(weak.status).toBe(422);
      expect(weak.body.code).toBe('password_policy_violated');
      const taken = await put(person.personId, {
        username: neighbour.username,
        password: 'a fresh passphrase here',
      });
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe('username_taken');
      const foreign = await put(
        person.personId,
        { username: person.username, password: 'a fresh passphrase here' },
        other,
      );
      expect(foreign.status).toBe(404);
      const malformed = await put(person.personId, { username: person.username });
      expect(malformed.status).toBe(400);

      const read = await sut.api.get(`/api/v1/persons/${person.personId}`, { token: acme.token });
      expect(read.body.credentials).toMatchObject({ username: person.username, status: 'INVALIDATED' });
      await expectPersonUpdatedEvents(db, acme, person.personId, 1);
    });
  });
});
