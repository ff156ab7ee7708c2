import { registerMessages } from '@fincore/platform';

registerMessages({
  event_cursor_expired: {
    title: { en: 'Cursor expired', de: 'Cursor abgelaufen' },
    detail: {
      en: 'Events after this cursor are older than the {retentionDays}-day retention window and may be gone; start again without after.',
      de: 'Ereignisse nach diesem Cursor sind älter als die Aufbewahrung von {retentionDays} Tagen und womöglich gelöscht; beginnen Sie erneut ohne after.',
    },
  },
  event_stream_busy: {
    title: { en: 'Too many waiting reads', de: 'Zu viele wartende Abfragen' },
    detail: {
      en: 'This server holds {max} waiting reads already; retry after Retry-After, or read without waitSeconds.',
      de: 'Dieser Server hält bereits {max} wartende Abfragen; wiederholen Sie nach Retry-After oder lesen Sie ohne waitSeconds.',
    },
  },
});
