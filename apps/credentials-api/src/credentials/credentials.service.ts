import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '@fincore/platform';
import { UnitOfWork } from '@fincore/events';
import {
  CredentialsStatus,
  invalidateCredentials,
  isSameUsername,
  usernameKey,
} from '../persons/domain/credentials';
import { isErased } from '../persons/domain/erasure';
import { profileOf } from '../persons/domain/profile';
import { LoginThrottle, PasswordCheck } from '../persons/login-throttle';
import { PasswordHasher } from '../persons/password-hasher';
import { PersonRepository } from '../persons/person.repository';
import {
  AuthenticateBody,
  AuthenticateResponse,
  InvalidateCredentialsBody,
  InvalidateCredentialsResponse,
} from './credentials.schemas';
import { mapAuthentication, mapInvalidation } from './credentials.mapper';
import { invalidCredentials } from './credentials.problems';

/** Proving, checking and invalidating a person's credentials. */
@Injectable()
export class CredentialsService {
  constructor(
    @Inject(PersonRepository) private readonly persons: PersonRepository,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(PasswordHasher) private readonly hasher: PasswordHasher,
    @Inject(LoginThrottle) private readonly throttle: LoginThrottle,
  ) {}

  /**
   * Makes the person's credentials invalid, given proof of them. Safe to repeat: invalidated
   * credentials give the same answer and no second event. Concurrent calls serialise on the row.
   */
  async invalidate(
    principal: Principal,
    body: InvalidateCredentialsBody,
  ): Promise<InvalidateCredentialsResponse> {
    const check = await this.throttle.startCheck(principal.tenantId, body.username);
    // An erased person has no credentials left to prove: checked as nobody, refused alike.
    const { person, passwordMatches } = await this.checkPassword(check, body.password, async () => {
      const found = await this.persons.findByPersonId(principal.tenantId, body.personId);
      return found && !isErased(found) ? found : null;
    });
    if (!person || !passwordMatches || !isSameUsername(person.usernameKey, body.username)) {
      await this.throttle.recordFailure(check);
      throw invalidCredentials(422);
    }
    await this.throttle.recordSuccess(check);

    // The slow verification ran outside the transaction; under the lock we only check the proof still
    // holds. A changed hash is verified again: a re-hash at a raised cost keeps the same password.
    return this.uow.run(async (tx) => {
      const locked = await this.persons.lockById(tx.manager, person.id);
      const proofHolds =
        !!locked &&
        isSameUsername(locked.usernameKey, body.username) &&
        (locked.passwordHash === person.passwordHash ||
          (await this.hasher.verify(locked.passwordHash, body.password)));
      if (!locked || !proofHolds) throw invalidCredentials(422);
      const outcome = invalidateCredentials(
        { status: locked.credentialsStatus, invalidatedAt: locked.credentialsInvalidatedAt },
        new Date(),
      );
      if (outcome.changed) {
        const invalidatedAt = outcome.state.invalidatedAt!;
        await this.persons.invalidateCredentials(tx.manager, locked.id, invalidatedAt);
        await tx.emit('PERSON_UPDATED', principal.tenantCode, {
          personId: locked.personId,
          changedFields: outcome.changedFields,
          person: { personId: locked.personId, ...profileOf(locked) },
          credentials: { status: outcome.state.status, invalidatedAt: invalidatedAt.toISOString() },
        });
      }
      return mapInvalidation(locked.personId, outcome.state);
    });
  }

  /** Checks credentials; invalid and invalidated ones get the same 401. Re-hashes when the cost was raised. */
  async authenticate(principal: Principal, body: AuthenticateBody): Promise<AuthenticateResponse> {
    const check = await this.throttle.startCheck(principal.tenantId, body.username);
    const { person, passwordMatches } = await this.checkPassword(check, body.password, () =>
      this.persons.findByUsernameKey(principal.tenantId, usernameKey(body.username)),
    );
    if (!person || !passwordMatches || person.credentialsStatus !== CredentialsStatus.Active) {
      await this.throttle.recordFailure(check);
      throw invalidCredentials(401);
    }
    await this.throttle.recordSuccess(check);
    if (this.hasher.needsRehash(person.passwordHash)) {
      const upgraded = await this.hasher.hash(body.password);
      await this.persons.upgradePasswordHash(person.id, person.passwordHash, upgraded);
    }
    return mapAuthentication(person.personId, new Date());
  }

  /**
   * Finds the person and verifies the password, in every case (also when nobody is found), before
   * anything else is judged, so timing is uniform. A check that fails to run (not to match) is
   * taken back from the throttle.
   */
  private async checkPassword<P extends { passwordHash: string }>(
    check: PasswordCheck,
    password: string,
    find: () => Promise<P | null>,
  ): Promise<{ person: P | null; passwordMatches: boolean }> {
    try {
      const person = await find();
      const passwordMatches = person
        ? await this.hasher.verify(person.passwordHash, password)
        : await this.hasher.verifyNobody(password);
      return { person, passwordMatches };
    } catch (error) {
      await this.throttle.abandon(check);
      throw error;
    }
  }
}
