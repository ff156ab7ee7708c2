import { z } from 'zod';
import { EventTypeEntry, isoDateTime } from './event-type-entry';
import { WEBHOOK_EVENT_CATALOG } from './webhook-event-types';

/**
 * The event types fincore emits, each with the schema of its `data`. The outbox refuses data that
 * does not match, so subscribers can rely on these schemas (published by GET /notification-types).
 */
export const EVENT_CATALOG = {
  PERSON_UPDATED: {
    description: 'A person changed: profile fields, or the status of their credentials.',
    schema: z
      .object({
        personId: z.string(),
        changedFields: z
          .array(z.string())
          .min(1)
          .describe('Names of the fields that changed, e.g. credentials.status'),
        person: z
          .object({
            personId: z.string(),
            firstName: z.string().nullable().optional(),
            lastName: z.string().nullable().optional(),
            email: z.string().nullable().optional(),
            phone: z.string().nullable().optional(),
          })
          .passthrough()
          .optional()
          .describe(
            'Profile as it is after the change (never any credential material); gone once the person is erased',
          ),
        credentials: z
          .object({
            status: z.enum(['ACTIVE', 'INVALIDATED']),
            invalidatedAt: isoDateTime.nullable(),
          })
          .optional(),
        erased: z
          .literal(true)
          .optional()
          .describe(
            'The person was erased since: the profile this event carried is gone (see PERSON_ERASED)',
          ),
      })
      .meta({ id: 'PersonUpdatedData' }),
    example: {
      personId: 'person-4711',
      changedFields: ['lastName', 'email'],
      person: {
        personId: 'person-4711',
        firstName: 'Ada',
        lastName: 'Byron',
        email: 'ada.byron@example.com',
        phone: null,
      },
    },
    ids: ['personId'],
    personalData: ['person'],
  },
  PERSON_ERASED: {
    description:
      'A person was erased: their profile and credentials are gone, and every stored event about them lost its personal data. Subscribers erase what they keep of the person too.',
    schema: z
      .object({
        personId: z.string(),
        erasedAt: isoDateTime.describe('When the erasure took effect'),
      })
      .strict()
      .meta({ id: 'PersonErasedData' }),
    example: { personId: 'person-4711', erasedAt: '2026-01-10T12:00:00.000Z' },
    ids: ['personId'],
    personalData: [],
  },
  CARD_SETTINGS_CHANGED: {
    description: 'The settings of a card changed: allowed service codes, renewable, xpaysAllowed.',
    schema: z
      .object({
        cardId: z.string(),
        changedFields: z
          .array(z.string())
          .min(1)
          .describe('e.g. authorisationTypes.0C, renewable, xpaysAllowed'),
        cause: z
          .enum(['SETTINGS_CHANGE', 'USAGE_GROUP_CHANGE'])
          .describe("The card's own settings change, or a change of the codes its usage group allows"),
        previous: z.object({
          authorisationTypes: z.array(z.object({ serviceCode: z.string(), allowed: z.boolean() })),
          renewable: z.boolean(),
          xpaysAllowed: z.boolean(),
        }),
        current: z.object({
          authorisationTypes: z.array(z.object({ serviceCode: z.string(), allowed: z.boolean() })),
          renewable: z.boolean(),
          xpaysAllowed: z.boolean(),
        }),
      })
      .meta({ id: 'CardSettingsChangedData' }),
    example: {
      cardId: 'CARD-VISA-0001',
      changedFields: ['authorisationTypes.0C', 'renewable'],
      cause: 'SETTINGS_CHANGE',
      previous: {
        authorisationTypes: [
          { serviceCode: '00', allowed: true },
          { serviceCode: '0C', allowed: false },
        ],
        renewable: true,
        xpaysAllowed: false,
      },
      current: {
        authorisationTypes: [
          { serviceCode: '00', allowed: true },
          { serviceCode: '0C', allowed: true },
        ],
        renewable: false,
        xpaysAllowed: false,
      },
    },
    ids: ['cardId'],
    personalData: [],
  },
  ...WEBHOOK_EVENT_CATALOG,
} as const satisfies Record<string, EventTypeEntry>;

/** The events about webhook delivery itself, whose subject is an endpoint. */
export const OPERATIONAL_EVENT_TYPES = [
  'WEBHOOK_ENDPOINT_DISABLED',
  'WEBHOOK_ENDPOINT_FAILING',
  'WEBHOOK_ENDPOINT_RECOVERED',
  'WEBHOOK_DELIVERY_EXHAUSTED',
] as const satisfies ReadonlyArray<keyof typeof EVENT_CATALOG>;

export function isOperationalEventType(type: string): boolean {
  return (OPERATIONAL_EVENT_TYPES as readonly string[]).includes(type);
}

export type EventType = keyof typeof EVENT_CATALOG;
/** Types sent to one endpoint on request: never fanned out, never enabled, never in the event stream. */
export const ON_REQUEST_EVENT_TYPES: readonly EventType[] = ['WEBHOOK_TEST'];
/** The types a tenant subscribes to (notification configuration, endpoint filters, the event stream). */
export const EVENT_TYPES = (Object.keys(EVENT_CATALOG) as EventType[]).filter(
  (type) => !ON_REQUEST_EVENT_TYPES.includes(type),
);
export type EventData<T extends EventType> = z.infer<(typeof EVENT_CATALOG)[T]['schema']>;

export function isEventType(value: string): value is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_CATALOG, value);
}

/** The data fields that hold personal data, per event type that has any (see EventTypeEntry). */
export function personalDataFields(): Record<string, readonly string[]> {
  return Object.fromEntries(
    EVENT_TYPES.filter((t) => EVENT_CATALOG[t].personalData.length).map((t) => [
      t,
      EVENT_CATALOG[t].personalData,
    ]),
  );
}

/** What a thin webhook keeps of an event's data: its ids, and `changedFields` where the type has them. */
export function thinEventData(type: EventType, data: Record<string, unknown>): Record<string, unknown> {
  const kept = [...EVENT_CATALOG[type].ids, 'changedFields'];
  return Object.fromEntries(kept.filter((k) => data[k] !== undefined).map((k) => [k, data[k]]));
}

/** The schema of a type's thin data: its ids, and `changedFields` when its full data has them. */
export function thinEventDataSchema(type: EventType): z.ZodType {
  const full = EVENT_CATALOG[type].schema as z.ZodObject;
  const shape: Record<string, z.ZodType> = {};
  for (const id of EVENT_CATALOG[type].ids) shape[id] = full.shape[id] as z.ZodType;
  if ('changedFields' in full.shape) shape.changedFields = full.shape.changedFields as z.ZodType;
  return z.object(shape).strict();
}

/** JSON Schema of an event type's data, for the notification-types catalog and the docs. */
export function eventDataJsonSchema(
  type: EventType,
  payload: 'FULL' | 'THIN' = 'FULL',
): Record<string, unknown> {
  const schema = payload === 'FULL' ? EVENT_CATALOG[type].schema : thinEventDataSchema(type);
  return z.toJSONSchema(schema, { target: 'draft-2020-12' }) as Record<string, unknown>;
}
