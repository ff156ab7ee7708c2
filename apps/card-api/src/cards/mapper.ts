import type { z } from 'zod';
import type {
  AccountResponse,
  CardResponse,
  CardSettingsView,
  SettingsHistoryEntry,
  UsageGroupResponse,
} from './cards.schemas';
import { CardProfile, CardSettings, settingsInForce } from './domain/card-settings';
import { inCatalogOrder } from './domain/service-codes';
import type { AccountEntity } from './entities/account.entity';
import type { CardSettingsChangeEntity } from './entities/card-settings-change.entity';
import type { CardEntity } from './entities/card.entity';
import type { UsageGroupEntity } from './entities/usage-group.entity';

export function profileOf(card: CardEntity, group: UsageGroupEntity): CardProfile {
  return { network: card.network, usageGroupCodes: group.allowedServiceCodes };
}

export function settingsOf(card: CardEntity, group: UsageGroupEntity): CardSettings {
  return settingsInForce(card.authorisationTypes, profileOf(card, group), card.renewable, card.xpaysAllowed);
}

export function toAccountResponse(a: AccountEntity): z.infer<typeof AccountResponse> {
  return {
    accountId: a.accountId,
    type: a.type,
    currencyCode: a.currencyCode,
    status: a.status,
    createdAt: a.createdAt.toISOString(),
  };
}

export function toUsageGroupResponse(g: UsageGroupEntity): z.infer<typeof UsageGroupResponse> {
  return {
    code: g.code,
    name: g.name,
    allowedServiceCodes: inCatalogOrder(g.allowedServiceCodes),
    createdAt: g.createdAt.toISOString(),
    updatedAt: g.updatedAt.toISOString(),
  };
}

export function toCardResponse(card: CardEntity, group: UsageGroupEntity): z.infer<typeof CardResponse> {
  return {
    cardId: card.cardId,
    accountId: card.accountId,
    network: card.network,
    cardType: card.cardType,
    usageGroup: card.usageGroup,
    status: card.status,
    settings: settingsOf(card, group),
    settingsVersion: card.settingsVersion,
    createdAt: card.createdAt.toISOString(),
  };
}

export function toSettingsView(card: CardEntity, group: UsageGroupEntity): z.infer<typeof CardSettingsView> {
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

export function toHistoryEntry(c: CardSettingsChangeEntity): z.infer<typeof SettingsHistoryEntry> {
  return {
    version: c.version,
    changedAt: c.changedAt.toISOString(),
    changedFields: c.changedFields,
    cause: c.cause,
    previous: c.previous,
    current: c.current,
    tokenId: c.tokenId,
    requestId: c.requestId,
  };
}
