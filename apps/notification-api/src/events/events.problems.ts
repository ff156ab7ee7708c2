import { defineProblems } from '@fincore/platform';

/** Problem codes of the event stream. */
const problems = defineProblems({
  event_cursor_expired: {
    status: 410,
    title: { en: 'Cursor expired', de: 'Cursor abgelaufen' },
    detail: {
      en: 'Events after this cursor are older than the {retentionDays}-day retention window and may be gone; start again without after.',
      de: 'Ereignisse nach diesem Cursor sind älter als die Aufbewahrung von {retentionDays} Tagen und womöglich gelöscht; beginnen Sie erneut ohne after.',
    },
  },
  event_stream_busy: {
    status: 503,
    title: { en: 'Too many waiting reads', de: 'Zu viele wartende Abfragen' },
    detail: {
      en: 'This server holds {max} waiting reads already; retry after {retryAfter} s, or read without waitSeconds.',
      de: 'Dieser Server hält bereits {max} wartende Abfragen; wiederholen Sie nach {retryAfter} s oder lesen Sie ohne waitSeconds.',
    },
  },
});

export const eventCursorExpired = (retentionDays: number) => problems.event_cursor_expired({ retentionDays });
export const eventStreamBusy = (max: number) => problems.event_stream_busy({ max }, { retryAfter: 1 });
