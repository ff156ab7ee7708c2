import { CommittedEvent, webhookEnvelope } from '@fincore/events';
import { EventCursor, eventCursor } from './domain/event-cursor';
import type { EventPage, StreamedEventResponse } from './events.schemas';

const cursorOf = (e: CommittedEvent) => eventCursor.encode({ ...e.at, createdAt: e.createdAt });

/** The page; `readUpTo` is where reading stopped, past any events left out. */
export function toEventPage(events: readonly CommittedEvent[], readUpTo: EventCursor | undefined): EventPage {
  return {
    items: events.map((e): StreamedEventResponse => ({
      cursor: cursorOf(e),
      event: webhookEnvelope(e.event, null) as StreamedEventResponse['event'],
    })),
    nextCursor: readUpTo ? eventCursor.encode(readUpTo) : null,
  };
}
