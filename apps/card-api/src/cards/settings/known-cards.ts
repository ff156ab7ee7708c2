import { BoundedMap } from '@fincore/platform';
import { CardEntity } from '../card/card.entity';
import type { CardWithUsageGroup, SettingsUpdate } from '../card/card.repository';

/** About a kilobyte each: a card not kept costs its change one unlocked read more. */
const KNOWN_CARDS = 20_000;

/**
 * The cards this replica last read or changed for a settings change, with their usage groups:
 * what the next change of a card is checked against first, so that it needs no read. Never an
 * answer by itself: the change applies only if the card and its group are still as kept here
 * (see CardRepository.changeSettingsIfUnchanged), so an entry made stale by another replica or
 * a usage-group change costs a fallback, never a wrong answer. Hence no announcements and no TTL.
 */
export class KnownCards {
  private readonly entries: BoundedMap<string, CardWithUsageGroup>;

  /** `maxEntries`: the oldest go first beyond it. */
  constructor(maxEntries = KNOWN_CARDS) {
    this.entries = new BoundedMap(maxEntries);
  }

  get(tenantId: string, cardId: string): CardWithUsageGroup | undefined {
    return this.entries.get(keyOf(tenantId, cardId));
  }

  /** Keeps the card as read or written, unless a later version of it is kept already. */
  remember(known: CardWithUsageGroup): void {
    const key = keyOf(known.card.tenantId, known.card.cardId);
    const kept = this.entries.get(key);
    if (kept && kept.card.settingsVersion > known.card.settingsVersion) return;
    this.entries.set(key, known);
  }

  /** Keeps the card as `update` leaves it. */
  rememberChanged({ card, group }: CardWithUsageGroup, update: SettingsUpdate): void {
    this.remember({ card: Object.assign(new CardEntity(), card, update), group });
  }

  forget(tenantId: string, cardId: string): void {
    this.entries.delete(keyOf(tenantId, cardId));
  }
}

const keyOf = (tenantId: string, cardId: string) => `${tenantId}:${cardId}`;
