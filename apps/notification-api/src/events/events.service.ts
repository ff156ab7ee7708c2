import { Inject, Injectable } from '@nestjs/common';
import { CommittedEvent, OutboxRepository } from '@fincore/events';
import { NotificationConfigRepository } from '@fincore/notifications';
import { APP_CONFIG, AppConfig, Principal } from '@fincore/platform';
import { EventCursor, eventCursor, isExpired, retentionWindowStart } from './domain/event-cursor';
import { isSubscribed, webhookSubscriptions } from './domain/webhook-subscriptions';
import { EventWakeups, WaitSlot } from './event-wakeups';
import { eventCursorExpired, eventStreamBusy } from './events.problems';
import { toEventPage } from './events.mapper';
import { EventPage, EventStreamQuery } from './events.schemas';

/** After a wake-up that found nothing visible yet (an older transaction still running), look again this soon, doubling. */
const RECHECK_MS = 25;
const RECHECK_MAX_MS = 1000;

/** A tenant's events in commit order, as its webhooks carry them; optionally waiting for the next. */
@Injectable()
export class EventsService {
  constructor(
    private readonly outbox: OutboxRepository,
    private readonly configs: NotificationConfigRepository,
    private readonly wakeups: EventWakeups,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async read(principal: Principal, query: EventStreamQuery): Promise<EventPage> {
    const after = query.after === undefined ? undefined : eventCursor.decode(query.after);
    const windowStart = retentionWindowStart(new Date(), this.config.OUTBOX_RETENTION_DAYS);
    if (after && isExpired(after, windowStart)) {
      throw eventCursorExpired(this.config.OUTBOX_RETENTION_DAYS);
    }
    const subscriptions = webhookSubscriptions(
      await this.configs.listOfTenant(principal.tenantId),
      query.types,
    );
    // An instant before the window starts at the window: a time, unlike a cursor, promises no continuity.
    const since = query.since && new Date(query.since) > windowStart ? new Date(query.since) : windowStart;
    const page = (from: EventCursor | undefined) =>
      this.readSubscribed(principal.tenantCode, subscriptions, from, since, query.limit);
    // Marked before the look at the outbox: an event added after the look still wakes the wait.
    const mark = query.waitSeconds && subscriptions.size ? await this.wakeups.mark() : undefined;
    const answer = await page(after);
    if (answer.items.length || mark === undefined) return answer;
    const slot = this.wakeups.hold(mark);
    if (!slot) {
      throw eventStreamBusy(this.config.EVENT_STREAM_MAX_WAITERS);
    }
    try {
      return await this.waitForEvents(slot, Date.now() + query.waitSeconds * 1000, answer, page);
    } finally {
      slot.release();
    }
  }

  private async waitForEvents(
    slot: WaitSlot,
    deadline: number,
    answer: EventPage,
    page: (from: EventCursor | undefined) => Promise<EventPage>,
  ): Promise<EventPage> {
    let recheck: number | undefined;
    for (let left = deadline - Date.now(); left > 0 && !answer.items.length; left = deadline - Date.now()) {
      if (!(await slot.next(recheck === undefined ? left : Math.min(left, recheck)))) break;
      const from = answer.nextCursor === null ? undefined : eventCursor.decode(answer.nextCursor);
      answer = await page(from);
      recheck = Math.min((recheck ?? RECHECK_MS / 2) * 2, RECHECK_MAX_MS);
    }
    return answer;
  }

  /** One page of subscribed events; the cursor moves past the events read but not subscribed to. */
  private async readSubscribed(
    tenantCode: string,
    subscriptions: ReadonlyMap<string, Date>,
    after: EventCursor | undefined,
    since: Date,
    limit: number,
  ): Promise<EventPage> {
    let read: CommittedEvent[];
    const subscribed: CommittedEvent[] = [];
    do {
      read = subscriptions.size
        ? await this.outbox.pageCommitted({
            tenantCode,
            after,
            types: [...subscriptions.keys()],
            since,
            limit,
          })
        : [];
      subscribed.push(...read.filter((e) => isSubscribed(subscriptions, e.event)));
      if (read.length) after = { ...read[read.length - 1].at, createdAt: read[read.length - 1].createdAt };
    } while (read.length === limit && !subscribed.length);
    return toEventPage(subscribed, after);
  }
}
