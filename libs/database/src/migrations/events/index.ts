import { EventsOutbox1763700000100 } from './1763700000100-events-outbox';
import { EventsOutboxProcessed1763700000830 } from './1763700000830-events-outbox-processed';
import { EventsOutboxSubject1763700000905 } from './1763700000905-events-outbox-subject';
import { EventsOutboxTraceContext1763700000935 } from './1763700000935-events-outbox-trace-context';
import { EventsOutboxSubjectIndexWithSubject1763700000940 } from './1763700000940-events-outbox-subject-index-with-subject';
import { EventsOutboxNotifyUnpublished1763700000945 } from './1763700000945-events-outbox-notify-unpublished';
import { EventsOutboxCommitOrder1763700000955 } from './1763700000955-events-outbox-commit-order';

export const EVENTS_MIGRATIONS = [
  EventsOutbox1763700000100,
  EventsOutboxProcessed1763700000830,
  EventsOutboxSubject1763700000905,
  EventsOutboxTraceContext1763700000935,
  EventsOutboxSubjectIndexWithSubject1763700000940,
  EventsOutboxNotifyUnpublished1763700000945,
  EventsOutboxCommitOrder1763700000955,
];
