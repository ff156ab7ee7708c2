import { z } from 'zod';
import { CardSettingsResponse, ChangeCardSettingsBody } from '../card-settings/card-settings.schemas';
import { AccountId, CardId, UsageGroupCode } from '../identifiers.schemas';
import { NetworkSchema } from '../service-codes/service-code.schemas';
import { CARD_EXAMPLE, CHANGE_CARD_STATUS_EXAMPLE, CREATE_CARD_EXAMPLE } from './card.examples';
import { CardStatus } from './domain/card-status';
import { CardType } from './domain/card-type';

const CardTypeSchema = z.enum(CardType).describe('Card type');
const CardStatusSchema = z.enum(CardStatus);

export const CreateCardBody = z
  .object({
    cardId: CardId,
    accountId: AccountId.describe('Account the card draws on; must exist and not be closed'),
    network: NetworkSchema,
    cardType: CardTypeSchema,
    usageGroup: UsageGroupCode.describe("Code of one of the tenant's usage groups"),
    status: z
      .enum([CardStatus.ACTIVE, CardStatus.BLOCKED])
      .default(CardStatus.ACTIVE)
      .describe('Initial status; ACTIVE when omitted'),
    settings: ChangeCardSettingsBody.optional().describe(
      'Initial settings, checked by the same rules as a change; when omitted every service code of the usage group is allowed, renewable is true and xpaysAllowed false',
    ),
  })
  .strict()
  .meta({ id: 'CreateCardRequest', example: CREATE_CARD_EXAMPLE });

export const CardResponse = z
  .object({
    cardId: CardId,
    accountId: AccountId,
    network: NetworkSchema,
    cardType: CardTypeSchema,
    usageGroup: UsageGroupCode,
    status: CardStatusSchema,
    settings: CardSettingsResponse,
    settingsVersion: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Card', example: CARD_EXAMPLE });

export const ChangeCardStatusBody = z
  .object({ status: CardStatusSchema.describe('ACTIVE and BLOCKED switch both ways; CLOSED is final') })
  .strict()
  .meta({ id: 'ChangeCardStatusRequest', example: CHANGE_CARD_STATUS_EXAMPLE });
