import type { EventData, EventType } from './catalog';

/** What subscribers receive, and what the outbox stores. */
export interface DomainEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  tenantCode: string;
  occurredAt: string;
  /** Request id of the call that caused the event, for tracing across services. */
  correlationId: string | null;
  data: EventData<T>;
}
