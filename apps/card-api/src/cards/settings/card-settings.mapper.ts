import type { z } from 'zod';
import type { CardEntity } from '../card/card.entity';
import type { UsageGroupEntity } from '../usage-groups/usage-group.entity';
import type { CardSettingsChangeEntity } from '../card/card-settings-change.entity';
import type {
  AuthorisationCheckResponse,
  CardSettingsView,
  SettingsHistoryEntry,
  SettingsHistoryResponse,
} from './card-settings.schemas';
import { AuthorisationDecision, settingsOf } from '../domain/card-settings';

export function mapSettingsView(card: CardEntity, group: UsageGroupEntity): z.infer<typeof CardSettingsView> {
  return {
    cardId: card.cardId,
    usageGroup: card.usageGroup,
    network: card.network,
    status: card.status,
    version: card.settingsVersion,
    changedAt: card.settingsChangedAt.toISOString(),
    ...settingsOf(card, group),
  };
}

export function mapHistoryEntry(change: CardSettingsChangeEntity): z.infer<typeof SettingsHistoryEntry> {
  return {
    version: change.version,
    changedAt: change.changedAt.toISOString(),
    changedFields: change.changedFields,
    cause: change.cause,
    previous: change.previous,
    current: change.current,
    tokenId: change.tokenId,
    requestId: change.requestId,
  };
}

/** One page of history; `nextBeforeVersion` continues below the page's last entry. */
export function mapHistoryPage(
  cardId: string,
  page: CardSettingsChangeEntity[],
  hasMore: boolean,
): z.infer<typeof SettingsHistoryResponse> {
  return {
    cardId,
    items: page.map(mapHistoryEntry),
    nextBeforeVersion: hasMore ? page[page.length - 1].version : null,
  };
}

export function mapAuthorisationCheck(
  card: CardEntity,
  serviceCode: string,
  decision: AuthorisationDecision,
): z.infer<typeof AuthorisationCheckResponse> {
  return { cardId: card.cardId, serviceCode, ...decision, settingsVersion: card.settingsVersion };
}
