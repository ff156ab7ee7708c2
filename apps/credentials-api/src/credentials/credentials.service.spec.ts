import { ProblemException } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import { newUnitOfWork } from '@test/support/unit-of-work-double';
import type { LoginThrottle, PasswordCheck } from '../persons/login-throttle';
import type { PasswordHasher } from '../persons/password-hasher';
import type { PersonRepository } from '../persons/person.repository';
import { anErasedPerson, anInvalidatedPerson, aPerson, PRINCIPAL } from '@test/support/fixtures/persons';
import { CredentialsService } from './credentials.service';

const problem = (code: string, status: number) => expect.objectContaining({ code, status });

describe('CredentialsService', () => {
  let persons: jest.Mocked<PersonRepository>;
  let hasher: jest.Mocked<PasswordHasher>;
  let throttle: jest.Mocked<LoginThrottle>;
  let unitOfWork: ReturnType<typeof newUnitOfWork>;
  let sut: CredentialsService;
  const check: PasswordCheck = { keys: { failures: 'f', lock: 'l' }, ordinal: 1 };

  beforeEach(() => {
    persons = newDouble<PersonRepository>();
    hasher = newDouble<PasswordHasher>();
    throttle = newDouble<LoginThrottle>();
    unitOfWork = newUnitOfWork();
    throttle.startCheck.mockResolvedValue(check);
    hasher.verify.mockResolvedValue(true);
    hasher.verifyNobody.mockResolvedValue(false);
    hasher.needsRehash.mockReturnValue(false);
    sut = new CredentialsService(persons, unitOfWork.uow, hasher, throttle);
  });

  describe('invalidate', () => {
    const body = { personId: 'person-1', username: 'Ada.Lovelace', password: 'analytical engine 1843' };

    beforeEach(() => {
      persons.findByPersonId.mockResolvedValue(aPerson());
      persons.lockById.mockResolvedValue(aPerson());
    });

    it('checks an erased person as nobody: 422, verifying against no stored hash', async () => {
      persons.findByPersonId.mockResolvedValue(anErasedPerson());
      await expect(sut.invalidate(PRINCIPAL, body)).rejects.toMatchObject({
        code: 'invalid_credentials',
        status: 422,
      });
      expect(hasher.verify).not.toHaveBeenCalled();
      expect(hasher.verifyNobody).toHaveBeenCalledWith(body.password);
      expect(throttle.recordFailure).toHaveBeenCalledWith(check);
      expect(unitOfWork.uow.run).not.toHaveBeenCalled();
    });

    it('does not count a check that PostgreSQL cut short against the username', async () => {
      const outage = new Error('Connection terminated unexpectedly');
      persons.findByPersonId.mockRejectedValue(outage);
      await expect(sut.invalidate(PRINCIPAL, body)).rejects.toBe(outage);
      expect(throttle.abandon).toHaveBeenCalledWith(check);
      expect(throttle.recordFailure).not.toHaveBeenCalled();
    });

    it('invalidates proven credentials under the row lock and emits PERSON_UPDATED', async () => {
      const { tx } = unitOfWork;
      const answer = await sut.invalidate(PRINCIPAL, body);
      expect(throttle.startCheck).toHaveBeenCalledWith('tenant-1', 'Ada.Lovelace');
      expect(hasher.verify).toHaveBeenCalledWith('$argon2id$stored', body.password);
      expect(throttle.recordSuccess).toHaveBeenCalledWith(check);
      expect(persons.lockById).toHaveBeenCalledWith(tx.manager, 'row-1');
      const [, , invalidatedAt] = persons.invalidateCredentials.mock.calls[0];
      expect(persons.invalidateCredentials).toHaveBeenCalledWith(tx.manager, 'row-1', invalidatedAt);
      expect(tx.emit).toHaveBeenCalledWith('PERSON_UPDATED', 'ACME', {
        personId: 'person-1',
        changedFields: ['credentials.status', 'credentials.invalidatedAt'],
        person: {
          personId: 'person-1',
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.com',
          phone: null,
        },
        credentials: { status: 'INVALIDATED', invalidatedAt: invalidatedAt.toISOString() },
      });
      expect(answer).toEqual({
        personId: 'person-1',
        status: 'INVALIDATED',
        invalidatedAt: invalidatedAt.toISOString(),
      });
    });

    it('answers a repeat with the first invalidation time, writing and emitting nothing', async () => {
      persons.findByPersonId.mockResolvedValue(anInvalidatedPerson());
      persons.lockById.mockResolvedValue(anInvalidatedPerson());
      expect(await sut.invalidate(PRINCIPAL, body)).toEqual({
        personId: 'person-1',
        status: 'INVALIDATED',
        invalidatedAt: '2025-11-21T10:00:00.000Z',
      });
      expect(persons.invalidateCredentials).not.toHaveBeenCalled();
      expect(unitOfWork.tx.emit).not.toHaveBeenCalled();
    });

    it('gives one answer for an unknown person, a wrong password and a wrong username, and counts each', async () => {
      persons.findByPersonId.mockResolvedValueOnce(null);
      await expect(sut.invalidate(PRINCIPAL, body)).rejects.toEqual(problem('invalid_credentials', 422));
      expect(hasher.verifyNobody).toHaveBeenCalledWith(body.password);
      hasher.verify.mockResolvedValueOnce(false);
      await expect(sut.invalidate(PRINCIPAL, body)).rejects.toEqual(problem('invalid_credentials', 422));
      await expect(sut.invalidate(PRINCIPAL, { ...body, username: 'someone.else' })).rejects.toEqual(
        problem('invalid_credentials', 422),
      );
      expect(throttle.recordFailure).toHaveBeenCalledTimes(3);
      expect(unitOfWork.uow.run).not.toHaveBeenCalled();
    });

    it('verifies again when the hash changed before the lock, and refuses when it no longer matches', async () => {
      persons.lockById.mockResolvedValue(aPerson({ passwordHash: '$argon2id$rehashed' }));
      await sut.invalidate(PRINCIPAL, body);
      expect(hasher.verify).toHaveBeenLastCalledWith('$argon2id$rehashed', body.password);
      expect(persons.invalidateCredentials).toHaveBeenCalledTimes(1);

      hasher.verify.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
      await expect(sut.invalidate(PRINCIPAL, body)).rejects.toEqual(problem('invalid_credentials', 422));
      expect(persons.invalidateCredentials).toHaveBeenCalledTimes(1);
    });

    it('refuses when the person is gone by the time of the lock', async () => {
      persons.lockById.mockResolvedValue(null);
      await expect(sut.invalidate(PRINCIPAL, body)).rejects.toEqual(problem('invalid_credentials', 422));
    });

    it('checks nothing while the username is locked', async () => {
      throttle.startCheck.mockRejectedValue(new ProblemException('credentials_locked', 429));
      await expect(sut.invalidate(PRINCIPAL, body)).rejects.toEqual(problem('credentials_locked', 429));
      expect(persons.findByPersonId).not.toHaveBeenCalled();
    });
  });

  describe('authenticate', () => {
    const body = { username: 'ADA.lovelace', password: 'analytical engine 1843' };

    beforeEach(() => persons.findByUsernameKey.mockResolvedValue(aPerson()));

    it('does not count a check that PostgreSQL cut short against the username', async () => {
      const outage = new Error('Connection terminated unexpectedly');
      persons.findByUsernameKey.mockRejectedValue(outage);
      await expect(sut.authenticate(PRINCIPAL, body)).rejects.toBe(outage);
      expect(throttle.abandon).toHaveBeenCalledWith(check);
      expect(throttle.recordFailure).not.toHaveBeenCalled();
    });

    it('authenticates active credentials, looking the username up regardless of case', async () => {
      const answer = await sut.authenticate(PRINCIPAL, body);
      expect(persons.findByUsernameKey).toHaveBeenCalledWith('tenant-1', 'ada.lovelace');
      expect(answer).toEqual({
        authenticated: true,
        personId: 'person-1',
        authenticatedAt: expect.any(String),
      });
      expect(throttle.recordSuccess).toHaveBeenCalledWith(check);
      expect(persons.upgradePasswordHash).not.toHaveBeenCalled();
    });

    it('stores a stronger hash when the configured cost was raised, only over the checked one', async () => {
      hasher.needsRehash.mockReturnValue(true);
      hasher.hash.mockResolvedValue('$argon2id$stronger');
      await sut.authenticate(PRINCIPAL, body);
      expect(hasher.hash).toHaveBeenCalledWith(body.password);
      expect(persons.upgradePasswordHash).toHaveBeenCalledWith(
        'row-1',
        '$argon2id$stored',
        '$argon2id$stronger',
      );
    });

    it('gives one 401 for an unknown username, a wrong password and invalidated credentials', async () => {
      persons.findByUsernameKey.mockResolvedValueOnce(null);
      await expect(sut.authenticate(PRINCIPAL, body)).rejects.toEqual(problem('invalid_credentials', 401));
      expect(hasher.verifyNobody).toHaveBeenCalledWith(body.password);
      hasher.verify.mockResolvedValueOnce(false);
      await expect(sut.authenticate(PRINCIPAL, body)).rejects.toEqual(problem('invalid_credentials', 401));
      persons.findByUsernameKey.mockResolvedValueOnce(anInvalidatedPerson());
      await expect(sut.authenticate(PRINCIPAL, body)).rejects.toEqual(problem('invalid_credentials', 401));
      expect(throttle.recordFailure).toHaveBeenCalledTimes(3);
      expect(throttle.recordSuccess).not.toHaveBeenCalled();
    });
  });
});
