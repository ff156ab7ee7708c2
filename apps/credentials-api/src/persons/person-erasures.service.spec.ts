import { newDouble } from '@test/support/doubles';
import { newUnitOfWork } from '@test/support/unit-of-work-double';
import { aPerson, PRINCIPAL } from '@test/support/fixtures/persons';
import type { IdempotencyKeyRepository } from '@fincore/platform';
import type { OutboxRepository } from '@fincore/events';
import type { WebhookDeliveryErasureRepository } from '@fincore/notifications';
import { usernameTombstone } from './domain/erasure';
import type { LoginThrottle } from './login-throttle';
import type { PersonRepository } from './person.repository';
import { PersonErasuresService } from './person-erasures.service';

describe('PersonErasuresService', () => {
  let persons: jest.Mocked<PersonRepository>;
  let outbox: jest.Mocked<OutboxRepository>;
  let deliveries: jest.Mocked<WebhookDeliveryErasureRepository>;
  let answers: jest.Mocked<IdempotencyKeyRepository>;
  let throttle: jest.Mocked<LoginThrottle>;
  let unitOfWork: ReturnType<typeof newUnitOfWork>;
  let sut: PersonErasuresService;

  beforeEach(() => {
    persons = newDouble<PersonRepository>();
    outbox = newDouble<OutboxRepository>();
    deliveries = newDouble<WebhookDeliveryErasureRepository>();
    answers = newDouble<IdempotencyKeyRepository>();
    throttle = newDouble<LoginThrottle>();
    unitOfWork = newUnitOfWork();
    outbox.eraseSubjectData.mockResolvedValue(['event-1', 'event-2']);
    sut = new PersonErasuresService(persons, outbox, deliveries, answers, unitOfWork.uow, throttle);
  });

  describe('erase', () => {
    it('erases the person, their events, the answers to them and kept answers in one transaction, then emits PERSON_ERASED', async () => {
      const person = aPerson();
      persons.lockByPersonId.mockResolvedValue(person);
      const { tx } = unitOfWork;

      const erased = await sut.erase(PRINCIPAL, 'person-1');

      expect(persons.lockByPersonId).toHaveBeenCalledWith(tx.manager, 'tenant-1', 'person-1');
      const [, id, tombstone, record] = persons.erase.mock.calls[0];
      expect([id, tombstone]).toEqual(['row-1', usernameTombstone('tenant-1', 'ada.lovelace')]);
      expect(record).toEqual({ erasedAt: expect.any(Date), tokenId: 'token-1', requestId: null });
      const subject = { type: 'person', id: 'person-1' };
      expect(outbox.eraseSubjectData).toHaveBeenCalledWith(tx.manager, 'ACME', subject, {
        PERSON_UPDATED: ['person'],
      });
      expect(deliveries.eraseResponsesToEvents).toHaveBeenCalledWith(tx.manager, 'tenant-1', [
        'event-1',
        'event-2',
      ]);
      expect(answers.deleteAnswersAbout).toHaveBeenCalledWith(tx.manager, 'tenant-1', subject);
      const erasedAt = record.erasedAt.toISOString();
      expect(tx.emit).toHaveBeenCalledWith('PERSON_ERASED', 'ACME', { personId: 'person-1', erasedAt });
      expect(erased).toEqual({
        personId: 'person-1',
        status: 'ERASED',
        erasedAt,
        erasedByTokenId: 'token-1',
        requestId: null,
      });
      expect(throttle.clear).toHaveBeenCalledWith('tenant-1', 'ada.lovelace');
    });

    it('answers an erased person with the first erasure record, changing and emitting nothing', async () => {
      const erasedAt = new Date('2025-11-22T10:00:00.000Z');
      persons.lockByPersonId.mockResolvedValue(
        aPerson({ erasedAt, erasedByTokenId: 'token-0', erasureRequestId: 'request-0', firstName: null }),
      );

      const again = await sut.erase(PRINCIPAL, 'person-1');

      expect(again).toEqual({
        personId: 'person-1',
        status: 'ERASED',
        erasedAt: erasedAt.toISOString(),
        erasedByTokenId: 'token-0',
        requestId: 'request-0',
      });
      expect(persons.erase).not.toHaveBeenCalled();
      expect(outbox.eraseSubjectData).not.toHaveBeenCalled();
      expect(answers.deleteAnswersAbout).not.toHaveBeenCalled();
      expect(unitOfWork.tx.emit).not.toHaveBeenCalled();
      expect(throttle.clear).not.toHaveBeenCalled();
    });

    it('answers 404 for a person the tenant does not have, changing nothing', async () => {
      persons.lockByPersonId.mockResolvedValue(null);
      await expect(sut.erase(PRINCIPAL, 'nobody')).rejects.toMatchObject({
        code: 'person_not_found',
        status: 404,
      });
      expect(persons.erase).not.toHaveBeenCalled();
      expect(unitOfWork.tx.emit).not.toHaveBeenCalled();
    });
  });
});
