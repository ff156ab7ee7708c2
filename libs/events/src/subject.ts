import type { EventData, EventType } from './catalog';

/** What an event is about: the one person or card whose change it reports (an endpoint for a test). */
export interface EventSubject {
  type: 'person' | 'card' | 'endpoint';
  id: string;
}

const SUBJECT_OF: { [T in EventType]: (data: EventData<T>) => EventSubject } = {
  PERSON_UPDATED: (data) => ({ type: 'person', id: data.personId }),
  PERSON_ERASED: (data) => ({ type: 'person', id: data.personId }),
  CARD_SETTINGS_CHANGED: (data) => ({ type: 'card', id: data.cardId }),
  WEBHOOK_TEST: (data) => ({ type: 'endpoint', id: data.endpointId }),
};

/**
 * The subject of an event. Changes to one subject are serialised by its row lock in the API
 * transaction, so the outbox position of its events (assigned at insert, under that lock) is
 * their commit order; ordered delivery relies on that.
 */
export function subjectOf<T extends EventType>(type: T, data: EventData<T>): EventSubject {
  return SUBJECT_OF[type](data);
}
