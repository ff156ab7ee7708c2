import { z } from 'zod';
import { freeText } from '@fincore/platform';
import { AccountId, CardId, UsageGroupCode } from '../../identifiers.schemas';
import { NetworkSchema } from '../service-codes/service-code.schemas';
import {
  AUTHORISATION_TYPE_EXAMPLE,
  CARD_EXAMPLE,
  CHANGE_CARD_STATUS_EXAMPLE,
  CREATE_CARD_EXAMPLE,
  SETTINGS_EXAMPLE,
} from './card.examples';
import { CardStatus } from '../domain/card-status';
import { CardType } from '../domain/card-type';

/** The settings on the card's row, as a change states them and every card view shows them. */
export const AuthorisationTypeEntry = z
  .object({
    serviceCode: freeText({ max: 8, trim: false }).describe(
      'One of the service codes of GET /api/v1/service-codes',
    ),
    allowed: z.boolean().describe('true: authorisations with this service code are allowed for the card'),
  })
  .strict()
  .meta({ id: 'AuthorisationType', example: AUTHORISATION_TYPE_EXAMPLE });

export const ChangeCardSettingsBody = z
  .object({
    authorisationTypes: z
      .array(AuthorisationTypeEntry)
      .max(64)
      .describe("One entry per service code; every code the card's usage group allows must be present"),
    renewable: z
      .boolean()
      .describe('Whether the card is renewable (required: the request states the whole settings)'),
    xpaysAllowed: z.boolean().describe('Whether the card may be added to a digital wallet (required)'),
  })
  .strict()
  .meta({ id: 'ChangeCardSettingsRequest', example: SETTINGS_EXAMPLE });

export const CardSettingsResponse = z
  .object({
    authorisationTypes: z
      .array(AuthorisationTypeEntry)
      .describe("One entry per service code of the card's usage group, in catalog order"),
    renewable: z.boolean(),
    xpaysAllowed: z.boolean(),
  })
  .meta({ id: 'CardSettings', example: SETTINGS_EXAMPLE });

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
