import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Principal, ProblemException } from '@fincore/platform';
import { UnitOfWork } from '@fincore/events';
import { PersonEntity } from '../persons/entities/person.entity';
import { toProfile } from '../persons/mapper';
import {
  AuthenticateBody,
  AuthenticateResponse,
  InvalidateCredentialsBody,
  InvalidateCredentialsResponse,
} from './credentials.schemas';
import { invalidateCredentials, isSameUsername, usernameKey } from './domain/credentials';
import { LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password-hasher';

/**
 * One answer for every mismatch (unknown person, other tenant, wrong username, wrong password,
 * credentials changed meanwhile), so the answer tells an attacker nothing.
 */
const mismatch = (status: 401 | 422) => new ProblemException('invalid_credentials', status);

/** Proving, checking and invalidating a person's credentials. */
@Injectable()
export class CredentialsService {
  constructor(
    @InjectRepository(PersonEntity) private readonly persons: Repository<PersonEntity>,
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
    const person = await this.persons.findOne({
      where: { tenantId: principal.tenantId, personId: body.personId },
    });
    // The password is verified in every case, before anything else is judged, so timing is uniform.
    const passwordMatches = person
      ? await this.hasher.verify(person.passwordHash, body.password)
      : await this.hasher.verifyNobody(body.password);
    if (!person || !passwordMatches || !isSameUsername(person.usernameKey, body.username)) {
      await this.throttle.recordFailure(check);
      throw mismatch(422);
    }
    await this.throttle.recordSuccess(check);

    // The slow verification ran outside the transaction; under the lock we only check the proof still
    // holds. A changed hash is verified again: a re-hash at a raised cost keeps the same password.
    return this.uow.run(async (tx) => {
      const repo = tx.manager.getRepository(PersonEntity);
      const locked = await repo.findOne({ where: { id: person.id }, lock: { mode: 'pessimistic_write' } });
      const proofHolds =
        !!locked &&
        isSameUsername(locked.usernameKey, body.username) &&
        (locked.passwordHash === person.passwordHash ||
          (await this.hasher.verify(locked.passwordHash, body.password)));
      if (!locked || !proofHolds) throw mismatch(422);
      const outcome = invalidateCredentials(
        { status: locked.credentialsStatus, invalidatedAt: locked.credentialsInvalidatedAt },
        new Date(),
      );
      if (outcome.changed) {
        const invalidatedAt = outcome.state.invalidatedAt!;
        await repo.update(
          { id: locked.id },
          {
            credentialsStatus: outcome.state.status,
            credentialsInvalidatedAt: invalidatedAt,
            credentialsUpdatedAt: invalidatedAt,
            updatedAt: invalidatedAt,
          },
        );
        await tx.emit('PERSON_UPDATED', principal.tenantCode, {
          personId: locked.personId,
          changedFields: outcome.changedFields,
          person: { personId: locked.personId, ...toProfile(locked) },
          credentials: { status: outcome.state.status, invalidatedAt: invalidatedAt.toISOString() },
        });
      }
      return {
        personId: locked.personId,
        status: outcome.state.status,
        invalidatedAt: outcome.state.invalidatedAt!.toISOString(),
      };
    });
  }

  /** Checks credentials; invalid and invalidated ones get the same 401. Re-hashes when the cost was raised. */
  async authenticate(principal: Principal, body: AuthenticateBody): Promise<AuthenticateResponse> {
    const check = await this.throttle.startCheck(principal.tenantId, body.username);
    const person = await this.persons.findOne({
      where: { tenantId: principal.tenantId, usernameKey: usernameKey(body.username) },
    });
    const passwordMatches = person
      ? await this.hasher.verify(person.passwordHash, body.password)
      : await this.hasher.verifyNobody(body.password);
    if (!person || !passwordMatches || person.credentialsStatus !== 'ACTIVE') {
      await this.throttle.recordFailure(check);
      throw mismatch(401);
    }
    await this.throttle.recordSuccess(check);
    if (this.hasher.needsRehash(person.passwordHash)) {
      const upgraded = await this.hasher.hash(body.password);
      // Conditional: credentials replaced or invalidated meanwhile are left as they are.
      await this.persons.update(
        { id: person.id, passwordHash: person.passwordHash, credentialsStatus: 'ACTIVE' },
        { passwordHash: upgraded },
      );
    }
    return { authenticated: true, personId: person.personId, authenticatedAt: new Date().toISOString() };
  }
}
