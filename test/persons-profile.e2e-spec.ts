import { DataSource } from 'typeorm';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { startAppWorld } from './support/app-world';
import { createPerson, expectPersonUpdatedEvents } from './support/builders/persons';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

describe('persons: read and update the profile', () => {
  let stack: TestStack, sut: RunningApp, db: DataSource, acme: TenantFixture, other: TenantFixture;
  beforeAll(async () => ({ stack, sut, db, acme, other } = await startAppWorld(CredentialsApiApp)));
  afterAll(() => stack.close());

  describe('GET /api/v1/persons/{personId}', () => {
    it('answers 404 for an unknown person and for another tenant’s person alike', async () => {
      const foreign = await createPerson(sut.api, other.token);
      const unknown = await sut.api.get('/api/v1/persons/no-such-person', { token: acme.token });
      const foreignRead = await sut.api.get(`/api/v1/persons/${foreign.personId}`, { token: acme.token });
      expect(unknown.status).toBe(404);
      expect(foreignRead.status).toBe(404);
      expect(foreignRead.body.code).toBe('person_not_found');
      const malformed = await sut.api.get('/api/v1/persons/has%20space', { token: acme.token });
      expect(malformed.status).toBe(400);
      expect(malformed.body.code).toBe('validation_failed');
    });

    it('needs the persons:read scope', async () => {
      const person = await createPerson(sut.api, acme.token);
      const token = await acme.tokenWith(['persons:write']);
      expect((await sut.api.get(`/api/v1/persons/${person.personId}`, { token })).status).toBe(403);
    });
  });

  describe('PATCH /api/v1/persons/{personId}', () => {
    const patch = (personId: string, body: unknown, fixture = acme) =>
      sut.api.patch(`/api/v1/persons/${personId}`, body, { token: fixture.token });

    it('changes profile fields and emits PERSON_UPDATED naming exactly them', async () => {
      const person = await createPerson(sut.api, acme.token, {
        firstName: 'Ada',
        lastName: 'Lovelace',
        phone: '+4930123456',
      });
      const r = await patch(person.personId, { firstName: 'Ada', lastName: 'King', phone: null });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ firstName: 'Ada', lastName: 'King', phone: null, email: null });
      await expectPersonUpdatedEvents(db, acme, person.personId, [
        {
          data: {
            personId: person.personId,
            changedFields: ['lastName', 'phone'],
            person: {
              personId: person.personId,
              firstName: 'Ada',
              lastName: 'King',
              email: null,
              phone: null,
            },
          },
        },
      ]);
      expect(
        (await sut.api.get(`/api/v1/persons/${person.personId}`, { token: acme.token })).body.lastName,
      ).toBe('King');
    });

    it('emits nothing when nothing changes', async () => {
      const person = await createPerson(sut.api, acme.token, { firstName: 'Grace' });
      expect((await patch(person.personId, { firstName: 'Grace' })).status).toBe(200);
      expect((await patch(person.personId, {})).status).toBe(200);
      await expectPersonUpdatedEvents(db, acme, person.personId, 0);
    });

    it('refuses invalid fields, credential fields and other tenants’ persons, changing nothing', async () => {
      const person = await createPerson(sut.api, acme.token, { firstName: 'Grace' });
      const invalid = await patch(person.personId, { firstName: 'Gracie', email: 'not-an-email' });
      expect(invalid.status).toBe(400);
      expect(invalid.body.errors.map((e: { field: string }) => e.field)).toEqual(['email']);
      const nul = await patch(person.personId, { firstName: 'Gr\u0000ce' });
      expect(nul.status).toBe(400);
      expect(nul.body.errors.map((e: { field: string }) => e.field)).toEqual(['firstName']);
      const credentialField = await patch(person.personId, { username: 'new.name' });
      expect(credentialField.status).toBe(400);
      const foreign = await patch(person.personId, { firstName: 'Mallory' }, other);
      expect(foreign.status).toBe(404);
      const read = await sut.api.get(`/api/v1/persons/${person.personId}`, { token: acme.token });
      expect(read.body.firstName).toBe('Grace');
      await expectPersonUpdatedEvents(db, acme, person.personId, 0);
      await expectPersonUpdatedEvents(db, other, person.personId, 0);
    });
  });
});
