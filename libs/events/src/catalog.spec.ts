import {
  EVENT_CATALOG,
  EVENT_TYPES,
  eventDataJsonSchema,
  personalDataFields,
  thinEventData,
  thinEventDataSchema,
} from './catalog';
import { subjectOf } from './subject';
import { thinWebhookEnvelope } from './webhook-envelope';

describe('EVENT_CATALOG', () => {
  it.each(EVENT_TYPES)(
    '%s: its example is data its schema accepts, with a subject, and its thin data fits its thin schema',
    (type) => {
      const sut = EVENT_CATALOG[type];
      expect(sut.schema.safeParse(sut.example).error).toBeUndefined();
      expect(subjectOf(type, sut.example as never).id).toEqual(expect.any(String));
      expect(thinEventDataSchema(type).safeParse(thinEventData(type, sut.example)).error).toBeUndefined();
    },
  );

  it('describes PERSON_ERASED by the person id and the time only', () => {
    const sut = EVENT_CATALOG.PERSON_ERASED.schema;
    expect(sut.safeParse({ personId: 'p-1', erasedAt: '2026-11-27T01:00:00.000Z' }).success).toBe(true);
    expect(
      sut.safeParse({ personId: 'p-1', erasedAt: '2026-11-27T01:00:00.000Z', firstName: 'Ada' }).success,
    ).toBe(false);
  });
});

describe('personalDataFields', () => {
  it('names the fields of each type that hold personal data', () => {
    expect(personalDataFields()).toEqual({ PERSON_UPDATED: ['person'] });
  });
});

describe('thinEventData', () => {
  it('keeps the ids and changedFields, nothing else', () => {
    const sut = thinEventData('PERSON_UPDATED', EVENT_CATALOG.PERSON_UPDATED.example);
    expect(sut).toEqual({ personId: 'person-4711', changedFields: ['lastName', 'email'] });
  });

  it('keeps only the ids of a type without changedFields', () => {
    expect(thinEventData('PERSON_ERASED', EVENT_CATALOG.PERSON_ERASED.example)).toEqual({
      personId: 'person-4711',
    });
  });

  it('publishes the thin schema as JSON Schema', () => {
    expect(eventDataJsonSchema('CARD_SETTINGS_CHANGED', 'THIN')).toMatchObject({
      type: 'object',
      properties: { cardId: { type: 'string' }, changedFields: { type: 'array' } },
      required: ['cardId', 'changedFields'],
      additionalProperties: false,
    });
  });
});

describe('thinWebhookEnvelope', () => {
  it('carries id, type, tenant, time, subject, sequence and the thin data only', () => {
    const occurredAt = new Date('2026-11-27T01:00:00.000Z');
    const event = {
      id: 'e-1',
      type: 'PERSON_UPDATED',
      tenantCode: 'ACME',
      occurredAt,
      correlationId: 'request-1',
      data: EVENT_CATALOG.PERSON_UPDATED.example,
    };
    expect(thinWebhookEnvelope(event, 4)).toEqual({
      id: 'e-1',
      type: 'PERSON_UPDATED',
      tenantCode: 'ACME',
      occurredAt: occurredAt.toISOString(),
      subject: { type: 'person', id: 'person-4711' },
      sequence: 4,
      data: { personId: 'person-4711', changedFields: ['lastName', 'email'] },
    });
  });
});
