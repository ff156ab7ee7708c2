import { z } from 'zod';
import { boundedIntParam, freeText } from '@fincore/platform';
import { CardStatus } from '../domain/card-status';
import { CardId, UsageGroupCode } from '../../identifiers.schemas';
import { NetworkSchema } from '../service-codes/service-code.schemas';
import { AuthorisationTypeEntry, CardSettingsResponse } from '../card/card.schemas';
import {
  AUTHORISATION_CHECK_EXAMPLE,
  AUTHORISATION_CHECK_RESULT_EXAMPLE,
  SETTINGS_HISTORY_EXAMPLE,
  SETTINGS_VIEW_EXAMPLE,
} from './card-settings.examples';
import { AuthorisationDecisionReason, SettingsChangeCause } from '../domain/card-settings';

export const CardSettingsView = z
  .object({
    cardId: CardId,
    usageGroup: UsageGroupCode,
    network: NetworkSchema,
    status: z.enum(CardStatus),
    version: z.number().int().describe('Settings version; +1 on every effective change'),
    changedAt: z.iso.datetime().describe('When the settings last changed (or the card was provisioned)'),
    authorisationTypes: z.array(AuthorisationTypeEntry),
    renewable: z.boolean(),
    xpaysAllowed: z.boolean(),
  })
  .meta({ id: 'CardSettingsView', example: SETTINGS_VIEW_EXAMPLE });

export const HistoryQuery = z
  .object({
    limit: boundedIntParam({ min: 1, max: 200 }).default(50).describe('Entries per page, newest first'),
    beforeVersion: boundedIntParam({ min: 1 })
      .optional()
      .describe('Only versions below this one (the next page)'),
  })
  .strict();

export const SettingsHistoryEntry = z
  .object({
    version: z.number().int().describe('Settings version this change created'),
    changedAt: z.iso.datetime(),
    changedFields: z.array(z.string()).describe('e.g. authorisationTypes.0C, renewable'),
    cause: z
      .enum(SettingsChangeCause)
      .describe(
        "SETTINGS_CHANGE: the card's settings were changed; USAGE_GROUP_CHANGE: its usage group's codes were",
      ),
    previous: CardSettingsResponse,
    current: CardSettingsResponse,
    tokenId: z.string().nullable().describe('API token that made the change'),
    requestId: z.string().nullable().describe('x-request-id of the change'),
  })
  .meta({ id: 'CardSettingsHistoryEntry' });

export const SettingsHistoryResponse = z
  .object({
    cardId: CardId,
    items: z.array(SettingsHistoryEntry),
    nextBeforeVersion: z
      .number()
      .int()
      .nullable()
      .describe('Pass as beforeVersion for the next page; null on the last'),
  })
  .meta({ id: 'CardSettingsHistory', example: SETTINGS_HISTORY_EXAMPLE });

export const AuthorisationCheckBody = z
  .object({ serviceCode: freeText({ max: 8, trim: false }).describe('Service code of the authorisation') })
  .strict()
  .meta({ id: 'AuthorisationCheckRequest', example: AUTHORISATION_CHECK_EXAMPLE });

export const AuthorisationCheckResponse = z
  .object({
    cardId: CardId,
    serviceCode: z.string(),
    allowed: z.boolean(),
    reason: z
      .enum(AuthorisationDecisionReason)
      .describe('Why; the most fundamental reason when several apply'),
    settingsVersion: z.number().int().describe('Version of the settings the answer was taken from'),
  })
  .meta({ id: 'AuthorisationCheckResult', example: AUTHORISATION_CHECK_RESULT_EXAMPLE });
