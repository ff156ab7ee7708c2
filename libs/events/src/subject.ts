import type { EventData, EventType } from './catalog';

/** What an event is about: the one person or card whose change it reports (an endpoint for a test). */
export interface EventSubject {
  type: 'person' | 'card' | typeof ENDPOINT_SUBJECT;
  id: string;
}

/**
 * The subject type of the events about an endpoint (operational events, a test event): the fan-out
 * never sends one to the endpoint it is about.
 */
export const ENDPOINT_SUBJECT = 'endpoint';
const aboutEndpoint = (data: { endpointId: string }): EventSubject => ({
  type: ENDPOINT_SUBJECT,
  id: data.endpointId,
});

const SUBJECT_OF: { [T in EventType]: (data: EventData<T>) => EventSubject } = {
  PERSON_UPDATED: (data) => ({ type: 'person', id: data.personId }),
  PERSON_ERASED: (data) => ({ type: 'person', id: data.personId }),
  CARD_SETTINGS_CHANGED: (data) => ({ type: 'card', id: data.cardId }),
  WEBHOOK_ENDPOINT_DISABLED: aboutEndpoint,
  WEBHOOK_ENDPOINT_FAILING: aboutEndpoint,
  WEBHOOK_ENDPOINT_RECOVERED: aboutEndpoint,
  WEBHOOK_DELIVERY_EXHAUSTED: aboutEndpoint,
  WEBHOOK_TEST: aboutEndpoint,
};

/**
 * The subject of an event. Changes to one subject are serialised by its row lock in the API
 * transaction, so the outbox position of its events (assigned at insert, under that lock) is
 * their commit order; ordered delivery relies on that.
 */
export function subjectOf<T extends EventType>(type: T, data: EventData<T>): EventSubject {
  return SUBJECT_OF[type](data);
}
