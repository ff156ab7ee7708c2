import { EventsOutbox1763700000100 } from './1763700000100-events-outbox';

export const EVENTS_MIGRATIONS = [EventsOutbox1763700000100];
