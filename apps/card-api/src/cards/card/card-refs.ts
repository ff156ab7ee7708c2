import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, REDIS, type RedisClient, ReplicatedCacheProvider } from '@fincore/platform';
import { AccountRef, AccountRepository } from '../accounts/account.repository';
import { AccountChanges } from '../accounts/account-changes';
import { CardRef, CardRepository } from './card.repository';

/** Safety net only, as for pricing: every change is announced; this bounds a missed announcement. */
const TTL_MS = 5 * 60_000;
/** Cards and accounts held per replica; the oldest go first beyond it. */
const MAX_ENTRIES = 200_000;

type Kind = 'card' | 'account';
const keyOf = (kind: Kind, tenantId: string, id: string) => `${kind}:${tenantId}:${id}`;

/**
 * The card and account facts other contexts read on hot paths (a fee quote), in memory on every
 * replica so a warm quote needs no PostgreSQL round trip. The card context calls cardChanged or
 * accountChanged after every commit that alters a CardRef or AccountRef (a card created or its
 * status changed, an account created); every replica drops the entry at once. "Not found" is not
 * kept, so rows created by other means (demo data) are seen at once.
 */
@Injectable()
export class CardRefs extends ReplicatedCacheProvider<CardRef | AccountRef | null> implements AccountChanges {
  constructor(
    cards: CardRepository,
    accounts: AccountRepository,
    @Inject(REDIS) redis: RedisClient,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(redis, config, {
      name: CardRefs.name,
      channelName: 'card-refs-changed',
      ttlMs: TTL_MS,
      maxEntries: MAX_ENTRIES,
      keep: (ref) => ref !== null,
      load: (key) => {
        const [kind, tenantId, id] = key.split(':', 3) as [Kind, string, string];
        return kind === 'card' ? cards.findRef(tenantId, id) : accounts.findRef(tenantId, id);
      },
    });
  }

  card(tenantId: string, cardId: string): Promise<CardRef | null> {
    return this.cache.get(keyOf('card', tenantId, cardId)) as Promise<CardRef | null>;
  }

  account(tenantId: string, accountId: string): Promise<AccountRef | null> {
    return this.cache.get(keyOf('account', tenantId, accountId)) as Promise<AccountRef | null>;
  }

  /** After commit: the card's status changed, or it was created (its account's card types too). */
  async cardChanged(tenantId: string, cardId: string, accountId: string): Promise<void> {
    await Promise.all([
      this.cache.changed(keyOf('card', tenantId, cardId)),
      this.cache.changed(keyOf('account', tenantId, accountId)),
    ]);
  }

  /** After commit: the account was created or changed. */
  accountChanged(tenantId: string, accountId: string): Promise<void> {
    return this.cache.changed(keyOf('account', tenantId, accountId));
  }
}
