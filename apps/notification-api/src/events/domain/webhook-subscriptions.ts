import type { StoredEvent } from '@fincore/events';

/** A tenant's switch of one type, as notification configs hold it. */
export interface TypeSwitch {
  notificationTypeCode: string;
  channelCode: string;
  enabled: boolean;
  enabledAt: Date | null;
}

/**
 * When each type was enabled over WEBHOOK, of those asked for (all when `asked` is undefined). An
 * event is delivered as its webhooks would be: its type enabled before it occurred.
 */
export function webhookSubscriptions(
  switches: readonly TypeSwitch[],
  asked: readonly string[] | undefined,
): Map<string, Date> {
  const enabled = switches.filter(
    (s) =>
      s.channelCode === 'WEBHOOK' &&
      s.enabled &&
      s.enabledAt &&
      (!asked || asked.includes(s.notificationTypeCode)),
  );
  return new Map(enabled.map((s) => [s.notificationTypeCode, s.enabledAt as Date]));
}

export function isSubscribed(subscriptions: ReadonlyMap<string, Date>, event: StoredEvent): boolean {
  const since = subscriptions.get(event.type);
  return since !== undefined && since <= event.occurredAt;
}
