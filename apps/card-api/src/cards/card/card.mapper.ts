import type { z } from 'zod';
import { settingsOf } from '../domain/card-settings';
import type { UsageGroupEntity } from '../usage-groups/usage-group.entity';
import type { CardEntity } from './card.entity';
import type { CardResponse } from './card.schemas';

export function mapCard(card: CardEntity, group: UsageGroupEntity): z.infer<typeof CardResponse> {
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
