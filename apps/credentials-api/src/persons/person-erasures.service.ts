import { Inject, Injectable } from '@nestjs/common';
import { IdempotencyKeyRepository, Principal, requestContext } from '@fincore/platform';
import { OutboxRepository, personalDataFields, UnitOfWork } from '@fincore/events';
import { WebhookDeliveryErasureRepository } from '@fincore/notifications';
import { isErased, usernameTombstone } from './domain/erasure';
import { LoginThrottle } from './login-throttle';
import { mapErasure } from './person.mapper';
import { personNotFound } from './person.problems';
import { PersonRepository } from './person.repository';
import { PersonErasureResponse } from './person.schemas';

/**
 * Erasing a person: in one transaction, under the person's row lock, the profile, password hash
 * and username go from the person's row (a tombstone with the erasure record stays), the personal
 * data from every stored event about them, the receivers' answers to those events' webhooks, and
 * the kept idempotent answers about them; PERSON_ERASED tells subscribers to erase too. Pending
 * and later attempts build their bodies from the erased events.
 */
@Injectable()
export class PersonErasuresService {
  constructor(
    @Inject(PersonRepository) private readonly persons: PersonRepository,
    @Inject(OutboxRepository) private readonly outbox: OutboxRepository,
    @Inject(WebhookDeliveryErasureRepository) private readonly deliveries: WebhookDeliveryErasureRepository,
    @Inject(IdempotencyKeyRepository) private readonly answers: IdempotencyKeyRepository,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(LoginThrottle) private readonly throttle: LoginThrottle,
  ) {}

  /** Erases the person; erasing them again answers the first erasure's record and changes nothing. */
  async erase(principal: Principal, personId: string): Promise<PersonErasureResponse> {
    let username: string | undefined;
    const erased = await this.uow.run(async (tx) => {
      const person = await this.persons.lockByPersonId(tx.manager, principal.tenantId, personId);
      if (!person) throw personNotFound(personId);
      if (isErased(person)) return mapErasure(person);
      username = person.username;
      const record = {
        erasedAt: new Date(),
        tokenId: principal.tokenId,
        requestId: requestContext.requestId() ?? null,
      };
      const tombstone = usernameTombstone(principal.tenantId, person.usernameKey);
      await this.persons.erase(tx.manager, person.id, tombstone, record);
      const subject = { type: 'person', id: personId } as const;
      const eventIds = await this.outbox.eraseSubjectData(
        tx.manager,
        principal.tenantCode,
        subject,
        personalDataFields(),
      );
      await this.deliveries.eraseResponsesToEvents(tx.manager, principal.tenantId, eventIds);
      await this.answers.deleteAnswersAbout(tx.manager, principal.tenantId, subject);
      await tx.emit('PERSON_ERASED', principal.tenantCode, {
        personId,
        erasedAt: record.erasedAt.toISOString(),
      });
      return mapErasure(
        Object.assign(person, {
          erasedAt: record.erasedAt,
          erasedByTokenId: record.tokenId,
          erasureRequestId: record.requestId,
        }),
      );
    });
    // The failure counters of the username go too (they are keyed by its digest, and expire anyway).
    if (username !== undefined) await this.throttle.clear(principal.tenantId, username);
    return erased;
  }
}
