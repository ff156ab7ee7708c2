import type { DataSource } from 'typeorm';
import type { TenantEntity } from '@fincore/platform';
import { newDomainEvents, outboxRows } from '@fincore/events';
import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import { usernameTombstone } from './domain/erasure';
import { PersonEntity } from './person.entity';
import { isUsernameConflict, NewPerson, PersonRepository } from './person.repository';

describe('PersonRepository (PostgreSQL)', () => {
  let testDb: TestDatabase;
  let db: DataSource;
  let tenant: TenantEntity;
  let sut: PersonRepository;
  let seq = 0;

  const newPerson = (overrides: Partial<NewPerson> = {}): NewPerson => {
    seq += 1;
    return {
      tenantId: tenant.id,
      personId: `person-${seq}`,
      firstName: 'Ada',
      lastName: null,
      email: null,
      phone: null,
      username: `user.${seq}`,
      usernameKey: `user.${seq}`,
      passwordHash: '$argon2id$first',
      ...overrides,
    };
  };
  const stored = async (person: NewPerson) => {
    await sut.insert(db.manager, person, new Date());
    return (await sut.findByPersonId(person.tenantId, person.personId))!;
  };

  beforeAll(async () => {
    testDb = await openTestDatabase([PersonEntity]);
    db = testDb.dataSource;
    tenant = await testDb.createTenant();
    sut = new PersonRepository(db);
  });
  afterAll(() => testDb.close());

  describe('insertIfNew', () => {
    it('inserts once, and answers false for a taken person id or username key', async () => {
      const person = newPerson();
      expect(await sut.insertIfNew(person, new Date())).toBe(true);
      expect(await sut.insertIfNew({ ...person, usernameKey: 'someone.else' }, new Date())).toBe(false);
      expect(await sut.insertIfNew({ ...newPerson(), usernameKey: person.usernameKey }, new Date())).toBe(
        false,
      );
      expect(await sut.findByUsernameKey(tenant.id, person.usernameKey)).toMatchObject({
        personId: person.personId,
        credentialsStatus: 'ACTIVE',
      });
    });
  });

  describe('findByPersonId', () => {
    it("reads in the caller's transaction when given its manager, else only committed rows", async () => {
      const person = newPerson();
      await db.transaction(async (manager) => {
        await sut.insert(manager, person, new Date());
        expect(await sut.findByPersonId(manager, person.tenantId, person.personId)).toMatchObject({
          personId: person.personId,
        });
        expect(await sut.findByPersonId(person.tenantId, person.personId)).toBeNull();
      });
      expect(await sut.findByPersonId(person.tenantId, person.personId)).not.toBeNull();
    });

    it('answers the whole person, as an entity with Dates, and only to its tenant', async () => {
      const person = await stored(newPerson({ email: 'ada@example.com' }));
      const other = await testDb.createTenant();

      expect(person).toBeInstanceOf(PersonEntity);
      expect(person).toEqual(await sut.findByPersonId(db.manager, person.tenantId, person.personId));
      expect(person.createdAt).toBeInstanceOf(Date);
      expect(await sut.findByPersonId(other.id, person.personId)).toBeNull();
    });
  });

  describe('existsByUsernameKey', () => {
    it('can leave the person out whose username it is', async () => {
      const person = await stored(newPerson());
      expect(await sut.existsByUsernameKey(tenant.id, person.usernameKey)).toBe(true);
      expect(await sut.existsByUsernameKey(tenant.id, person.usernameKey, person.id)).toBe(false);
    });
  });

  describe('replaceCredentials', () => {
    it('activates the new credentials', async () => {
      const person = await stored(newPerson());
      const at = new Date('2025-11-22T10:00:00.000Z');
      await db.transaction(async (manager) => {
        await sut.invalidateCredentials(manager, person.id, new Date('2025-11-21T10:00:00.000Z'));
        await sut.replaceCredentials(
          manager,
          person.id,
          { username: 'New.Name', usernameKey: 'new.name', passwordHash: '$argon2id$second' },
          at,
        );
      });
      expect(await sut.findByPersonId(tenant.id, person.personId)).toMatchObject({
        username: 'New.Name',
        passwordHash: '$argon2id$second',
        credentialsStatus: 'ACTIVE',
        credentialsInvalidatedAt: null,
        credentialsUpdatedAt: at,
      });
    });

    it('fails with an error recognised as a username conflict when the username is taken', async () => {
      const [taken, person] = [await stored(newPerson()), await stored(newPerson())];
      const replacing = db.transaction((manager) =>
        sut.replaceCredentials(
          manager,
          person.id,
          { username: taken.username, usernameKey: taken.usernameKey, passwordHash: '$argon2id$secret' },
          new Date(),
        ),
      );
      const error = await replacing.catch((e: unknown) => e);
      expect(isUsernameConflict(error)).toBe(true);
      expect(JSON.stringify((error as { parameters?: unknown }).parameters ?? [])).not.toContain('secret');
    });
  });

  describe('upgradePasswordHash', () => {
    it('replaces only the checked hash of active credentials', async () => {
      const person = await stored(newPerson());
      await sut.upgradePasswordHash(person.id, '$argon2id$other', '$argon2id$stronger');
      expect((await sut.findByPersonId(tenant.id, person.personId))!.passwordHash).toBe('$argon2id$first');
      await db.transaction((manager) => sut.invalidateCredentials(manager, person.id, new Date()));
      await sut.upgradePasswordHash(person.id, '$argon2id$first', '$argon2id$stronger');
      expect((await sut.findByPersonId(tenant.id, person.personId))!.passwordHash).toBe('$argon2id$first');
    });
  });

  describe('updateProfileIfUnchanged', () => {
    const profileOf = ({ firstName, lastName, email, phone }: PersonEntity) => ({
      firstName,
      lastName,
      email,
      phone,
    });
    const event = (personId: string) =>
      newDomainEvents([
        { type: 'PERSON_UPDATED', tenantCode: 'ACME', data: { personId, changedFields: ['lastName'] } },
      ]);
    const outboxHolds = async (eventId: string) =>
      (await db.query(`SELECT 1 FROM events.outbox WHERE id = $1`, [eventId])).length === 1;
    /** The statement with the rows of one PERSON_UPDATED: written only with the person's row. */
    const update = async (person: PersonEntity, expected: ReturnType<typeof profileOf>, at: Date) => {
      const events = event(person.personId);
      const updated = await sut.updateProfileIfUnchanged(
        person.id,
        expected,
        { ...expected, lastName: 'King' },
        at,
        outboxRows(events, null),
      );
      expect(await outboxHolds(events[0].id)).toBe(updated !== null);
      return updated;
    };

    it('updates the profile while it is as expected and answers the whole person as stored', async () => {
      const person = await stored(newPerson({ phone: '+4930123456' }));
      const at = new Date('2025-11-22T10:00:00.000Z');

      const updated = await update(person, profileOf(person), at);

      expect(updated).toEqual(
        Object.assign(new PersonEntity(), { ...person, lastName: 'King', updatedAt: at }),
      );
      expect(await sut.findByPersonId(tenant.id, person.personId)).toEqual(updated);
    });

    it('changes nothing and answers null once the profile differs from the expected one', async () => {
      const person = await stored(newPerson());

      expect(await update(person, { ...profileOf(person), email: 'old@example.com' }, new Date())).toBeNull();

      expect(await sut.findByPersonId(tenant.id, person.personId)).toEqual(person);
    });

    it('changes nothing of an erased person, whose profile is empty as expected', async () => {
      const person = await stored(newPerson({ firstName: null }));
      await erase(person);
      const erased = (await sut.findByPersonId(tenant.id, person.personId))!;

      expect(await update(erased, profileOf(erased), new Date())).toBeNull();
    });
  });

  const erase = (person: PersonEntity, at = new Date('2025-11-23T08:00:00.000Z')) =>
    db.transaction(async (manager) => {
      await sut.lockById(manager, person.id);
      await sut.erase(manager, person.id, usernameTombstone(tenant.id, person.usernameKey), {
        erasedAt: at,
        tokenId: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b',
        requestId: 'request-1',
      });
    });

  describe('erase', () => {
    it('leaves a tombstone: no profile, no hash, the username as its digest, credentials invalidated, the record kept', async () => {
      const person = await stored(
        newPerson({ lastName: 'Lovelace', email: 'ada@example.com', phone: '+4930123456' }),
      );
      const at = new Date('2025-11-23T08:00:00.000Z');

      await erase(person, at);

      const [row] = await db.query(`SELECT * FROM credentials.persons WHERE id = $1`, [person.id]);
      const tombstone = usernameTombstone(tenant.id, person.usernameKey);
      expect(row).toMatchObject({
        person_id: person.personId,
        first_name: null,
        last_name: null,
        email: null,
        phone: null,
        username: tombstone,
        username_key: tombstone,
        password_hash: '',
        credentials_status: 'INVALIDATED',
        credentials_invalidated_at: at,
        erased_at: at,
        erased_by_token_id: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b',
        erasure_request_id: 'request-1',
      });
      expect(JSON.stringify(row)).not.toContain(person.usernameKey);
    });

    it('keeps the username taken, and findable by nobody', async () => {
      const person = await stored(newPerson());
      await erase(person);

      expect(await sut.findByUsernameKey(tenant.id, person.usernameKey)).toBeNull();
      expect(await sut.existsByUsernameKey(tenant.id, person.usernameKey)).toBe(true);
      expect(await sut.existsByUsernameKey(tenant.id, `${person.usernameKey}.other`)).toBe(false);
    });
  });
});
