import { QueryFailedError } from 'typeorm';
import { newDouble } from '@test/support/doubles';
import { newUnitOfWork, OUTBOX_ROWS } from '@test/support/unit-of-work-double';
import type { LoginThrottle } from './login-throttle';
import type { PasswordHasher } from './password-hasher';
import type { PersonRepository } from './person.repository';
import { aPerson, anErasedPerson, anInvalidatedPerson, PRINCIPAL } from '@test/support/fixtures/persons';
import { PersonsService } from './persons.service';

const problem = (code: string, status: number) => expect.objectContaining({ code, status });

describe('PersonsService', () => {
  let persons: jest.Mocked<PersonRepository>;
  let hasher: jest.Mocked<PasswordHasher>;
  let throttle: jest.Mocked<LoginThrottle>;
  let unitOfWork: ReturnType<typeof newUnitOfWork>;
  let sut: PersonsService;

  beforeEach(() => {
    persons = newDouble<PersonRepository>();
    hasher = newDouble<PasswordHasher>();
    throttle = newDouble<LoginThrottle>();
    unitOfWork = newUnitOfWork();
    persons.existsByPersonId.mockResolvedValue(false);
    persons.existsByUsernameKey.mockResolvedValue(false);
    hasher.hash.mockResolvedValue('$argon2id$new');
    sut = new PersonsService(persons, unitOfWork.uow, hasher, throttle);
  });

  describe('create', () => {
    const body = { personId: 'person-1', username: 'Ada.Lovelace', password: 'analytical engine 1843' };

    it('stores the person with the hash of the password and answers the stored person', async () => {
      persons.insertIfNew.mockResolvedValue(true);
      persons.findByPersonId.mockResolvedValue(aPerson());
      const created = await sut.create(PRINCIPAL, { ...body, firstName: 'Ada' });
      expect(persons.insertIfNew).toHaveBeenCalledWith(
        {
          tenantId: 'tenant-1',
          personId: 'person-1',
          firstName: 'Ada',
          lastName: null,
          email: null,
          phone: null,
          username: 'Ada.Lovelace',
          usernameKey: 'ada.lovelace',
          passwordHash: '$argon2id$new',
        },
        expect.any(Date),
      );
      expect(hasher.hash).toHaveBeenCalledWith(body.password);
      expect(created).toMatchObject({ personId: 'person-1', credentials: { status: 'ACTIVE' } });
      expect(JSON.stringify(created)).not.toContain('argon2id');
    });

    it('generates a person id when none is given', async () => {
      persons.insertIfNew.mockResolvedValue(true);
      persons.findByPersonId.mockResolvedValue(aPerson());
      await sut.create(PRINCIPAL, { username: 'ada', password: body.password });
      expect(persons.insertIfNew.mock.calls[0][0].personId).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('refuses a weak password before looking anything up', async () => {
      await expect(sut.create(PRINCIPAL, { ...body, password: 'short' })).rejects.toEqual(
        problem('password_policy_violated', 422),
      );
      expect(persons.existsByPersonId).not.toHaveBeenCalled();
    });

    it('answers 409 for a taken person id or username without hashing', async () => {
      persons.existsByPersonId.mockResolvedValueOnce(true);
      await expect(sut.create(PRINCIPAL, body)).rejects.toEqual(problem('person_exists', 409));
      persons.existsByUsernameKey.mockResolvedValueOnce(true);
      await expect(sut.create(PRINCIPAL, body)).rejects.toEqual(problem('username_taken', 409));
      expect(persons.existsByUsernameKey).toHaveBeenCalledWith('tenant-1', 'ada.lovelace');
      expect(hasher.hash).not.toHaveBeenCalled();
    });

    it('tells which key a lost race took when the insert finds it taken', async () => {
      persons.insertIfNew.mockResolvedValue(false);
      persons.existsByPersonId.mockResolvedValueOnce(false).mockResolvedValueOnce(true);
      await expect(sut.create(PRINCIPAL, body)).rejects.toEqual(problem('person_exists', 409));
      persons.existsByPersonId.mockResolvedValue(false);
      await expect(sut.create(PRINCIPAL, body)).rejects.toEqual(problem('username_taken', 409));
    });
  });

  describe('get', () => {
    it("answers the tenant's person", async () => {
      persons.findByPersonId.mockResolvedValue(aPerson());
      expect(await sut.get(PRINCIPAL, 'person-1')).toEqual({
        personId: 'person-1',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: null,
        credentials: {
          username: 'ada.lovelace',
          status: 'ACTIVE',
          invalidatedAt: null,
          updatedAt: '2025-11-21T09:00:00.000Z',
        },
        createdAt: '2025-11-21T09:00:00.000Z',
        updatedAt: '2025-11-21T09:00:00.000Z',
      });
      expect(persons.findByPersonId).toHaveBeenCalledWith('tenant-1', 'person-1');
    });

    it('answers 404 for a person the tenant does not have', async () => {
      persons.findByPersonId.mockResolvedValue(null);
      await expect(sut.get(PRINCIPAL, 'nobody')).rejects.toEqual(problem('person_not_found', 404));
    });
  });

  describe('update', () => {
    it('changes the profile under the row lock and emits PERSON_UPDATED naming the changed fields', async () => {
      const { tx } = unitOfWork;
      persons.lockByPersonId.mockResolvedValue(aPerson());
      const updated = await sut.update(PRINCIPAL, 'person-1', { lastName: 'King', phone: null });
      expect(persons.lockByPersonId).toHaveBeenCalledWith(tx.manager, 'tenant-1', 'person-1');
      const profile = { firstName: 'Ada', lastName: 'King', email: 'ada@example.com', phone: null };
      expect(persons.updateProfile).toHaveBeenCalledWith(tx.manager, 'row-1', profile, expect.any(Date));
      expect(tx.emit).toHaveBeenCalledWith('PERSON_UPDATED', 'ACME', {
        personId: 'person-1',
        changedFields: ['lastName'],
        person: { personId: 'person-1', ...profile },
      });
      expect(updated.lastName).toBe('King');
      expect(updated.updatedAt).not.toBe('2025-11-21T09:00:00.000Z');
    });

    it('writes and emits nothing when nothing changes', async () => {
      persons.lockByPersonId.mockResolvedValue(aPerson());
      const same = await sut.update(PRINCIPAL, 'person-1', { firstName: 'Ada' });
      expect(persons.updateProfile).not.toHaveBeenCalled();
      expect(unitOfWork.tx.emit).not.toHaveBeenCalled();
      expect(same.updatedAt).toBe('2025-11-21T09:00:00.000Z');
    });

    it('answers 404 for a person the tenant does not have', async () => {
      persons.lockByPersonId.mockResolvedValue(null);
      await expect(sut.update(PRINCIPAL, 'nobody', { firstName: 'X' })).rejects.toEqual(
        problem('person_not_found', 404),
      );
    });
  });

  describe('update in one statement', () => {
    beforeEach(() => {
      persons.findByPersonId.mockResolvedValue(aPerson());
    });

    it('writes the change and its PERSON_UPDATED in one statement, only while the profile is as read', async () => {
      const stored = aPerson({ lastName: 'King', updatedAt: new Date('2025-11-22T10:00:00Z') });
      persons.updateProfileIfUnchanged.mockResolvedValue(stored);

      const updated = await sut.update(PRINCIPAL, 'person-1', { lastName: 'King' });

      expect(persons.findByPersonId).toHaveBeenCalledWith('tenant-1', 'person-1');
      const [id, expected, profile, , outbox] = persons.updateProfileIfUnchanged.mock.calls[0];
      expect([id, expected, profile]).toEqual([
        'row-1',
        { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: null },
        { firstName: 'Ada', lastName: 'King', email: 'ada@example.com', phone: null },
      ]);
      expect(outbox).toBe(OUTBOX_ROWS);
      const [change] = unitOfWork.uow.changeAsReadOrLocked.mock.calls[0];
      expect(change.plan(aPerson())).toMatchObject({
        type: 'PERSON_UPDATED',
        tenantCode: 'ACME',
        data: [
          { personId: 'person-1', changedFields: ['lastName'], person: { personId: 'person-1', ...profile } },
        ],
      });
      expect(updated).toMatchObject({ lastName: 'King', updatedAt: '2025-11-22T10:00:00.000Z' });
      expect(unitOfWork.uow.run).not.toHaveBeenCalled();
    });

    it('changes the profile under the row lock when it changed since it was read', async () => {
      persons.updateProfileIfUnchanged.mockResolvedValue(null);
      persons.lockByPersonId.mockResolvedValue(aPerson({ lastName: 'Byron' }));

      const updated = await sut.update(PRINCIPAL, 'person-1', { lastName: 'King' });

      expect(persons.updateProfile).toHaveBeenCalledWith(
        unitOfWork.tx.manager,
        'row-1',
        expect.objectContaining({ lastName: 'King' }),
        expect.any(Date),
      );
      expect(unitOfWork.tx.emit).toHaveBeenCalledTimes(1);
      expect(updated.lastName).toBe('King');
    });

    it('leaves a no-op and an unknown person to the locked path', async () => {
      persons.lockByPersonId.mockResolvedValue(aPerson());
      await sut.update(PRINCIPAL, 'person-1', { firstName: 'Ada' });
      persons.findByPersonId.mockResolvedValue(null);
      persons.lockByPersonId.mockResolvedValue(null);
      await expect(sut.update(PRINCIPAL, 'nobody', { firstName: 'X' })).rejects.toEqual(
        problem('person_not_found', 404),
      );
      expect(persons.updateProfileIfUnchanged).not.toHaveBeenCalled();
      expect(unitOfWork.uow.run).toHaveBeenCalledTimes(2);
    });
  });

  describe('setCredentials', () => {
    const body = { username: 'ada.king', password: 'a brand new passphrase 2' };

    beforeEach(() => {
      persons.findByPersonId.mockResolvedValue(anInvalidatedPerson());
      persons.lockById.mockResolvedValue(anInvalidatedPerson());
      hasher.verify.mockResolvedValue(false);
    });

    it('replaces invalidated credentials, emits PERSON_UPDATED and ends any lock on the username', async () => {
      const { tx } = unitOfWork;
      const person = await sut.setCredentials(PRINCIPAL, 'person-1', body);
      expect(persons.existsByUsernameKey).toHaveBeenCalledWith('tenant-1', 'ada.king', 'row-1');
      expect(persons.replaceCredentials).toHaveBeenCalledWith(
        tx.manager,
        'row-1',
        { username: 'ada.king', usernameKey: 'ada.king', passwordHash: '$argon2id$new' },
        expect.any(Date),
      );
      expect(tx.emit).toHaveBeenCalledWith('PERSON_UPDATED', 'ACME', {
        personId: 'person-1',
        changedFields: [
          'credentials.status',
          'credentials.invalidatedAt',
          'credentials.username',
          'credentials.password',
        ],
        person: {
          personId: 'person-1',
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.com',
          phone: null,
        },
        credentials: { status: 'ACTIVE', invalidatedAt: null },
      });
      expect(person.credentials).toMatchObject({
        username: 'ada.king',
        status: 'ACTIVE',
        invalidatedAt: null,
      });
      expect(throttle.clear).toHaveBeenCalledWith('tenant-1', 'ada.king');
    });

    it('refuses a weak password, an unknown person, active credentials and a taken username', async () => {
      await expect(sut.setCredentials(PRINCIPAL, 'person-1', { ...body, password: 'short' })).rejects.toEqual(
        problem('password_policy_violated', 422),
      );
      persons.findByPersonId.mockResolvedValueOnce(null);
      await expect(sut.setCredentials(PRINCIPAL, 'nobody', body)).rejects.toEqual(
        problem('person_not_found', 404),
      );
      persons.findByPersonId.mockResolvedValueOnce(aPerson());
      await expect(sut.setCredentials(PRINCIPAL, 'person-1', body)).rejects.toEqual(
        problem('credentials_active', 409),
      );
      persons.existsByUsernameKey.mockResolvedValueOnce(true);
      await expect(sut.setCredentials(PRINCIPAL, 'person-1', body)).rejects.toEqual(
        problem('username_taken', 409),
      );
      expect(persons.replaceCredentials).not.toHaveBeenCalled();
    });

    it('refuses the invalidated password', async () => {
      hasher.verify.mockResolvedValue(true);
      await expect(sut.setCredentials(PRINCIPAL, 'person-1', body)).rejects.toEqual(
        problem('password_reused', 422),
      );
      expect(hasher.verify).toHaveBeenCalledWith('$argon2id$stored', body.password);
    });

    it('keeps credentials someone else set between the checks and the lock', async () => {
      persons.lockById.mockResolvedValue(aPerson());
      await expect(sut.setCredentials(PRINCIPAL, 'person-1', body)).rejects.toEqual(
        problem('credentials_active', 409),
      );
      expect(persons.replaceCredentials).not.toHaveBeenCalled();
      expect(throttle.clear).not.toHaveBeenCalled();
    });

    it('answers 409 username_taken when a race takes the username after the check', async () => {
      const conflict = new QueryFailedError('UPDATE credentials.persons SET username = $1', [], {
        code: '23505',
        constraint: 'persons_tenant_username',
      } as unknown as Error);
      persons.replaceCredentials.mockRejectedValue(conflict);
      await expect(sut.setCredentials(PRINCIPAL, 'person-1', body)).rejects.toEqual(
        problem('username_taken', 409),
      );
    });
  });

  describe('an erased person', () => {
    const erased = problem('person_erased', 410);

    it('answers 410 to a read', async () => {
      persons.findByPersonId.mockResolvedValue(anErasedPerson());
      await expect(sut.get(PRINCIPAL, 'person-1')).rejects.toEqual(erased);
    });

    it('answers 410 to a profile change, under the lock, writing and emitting nothing', async () => {
      persons.findByPersonId.mockResolvedValue(anErasedPerson());
      persons.lockByPersonId.mockResolvedValue(anErasedPerson());
      await expect(sut.update(PRINCIPAL, 'person-1', { firstName: null })).rejects.toEqual(erased);
      expect(persons.updateProfileIfUnchanged).not.toHaveBeenCalled();
      expect(persons.updateProfile).not.toHaveBeenCalled();
      expect(unitOfWork.tx.emit).not.toHaveBeenCalled();
    });

    it('answers 410 to new credentials, hashing nothing', async () => {
      persons.findByPersonId.mockResolvedValue(anErasedPerson());
      const body = { username: 'someone.new', password: 'a brand new passphrase' };
      await expect(sut.setCredentials(PRINCIPAL, 'person-1', body)).rejects.toEqual(erased);
      expect(hasher.hash).not.toHaveBeenCalled();
      expect(persons.replaceCredentials).not.toHaveBeenCalled();
    });
  });
});
