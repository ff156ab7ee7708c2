import { z } from 'zod';
import { NETWORKS, SERVICE_CODE_VALUES } from './domain/service-codes';

/** Business identifiers chosen by the tenant's systems (card id, account id, usage group code). */
const businessId = (what: string, example: string) =>
  z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
      'letters, digits, _ . - (1 to 64 characters, starting with a letter or digit)',
    )
    .describe(what)
    .meta({ example });

export const CardId = businessId('Technical identifier of the card, unique per tenant', 'CARD-VISA-0001');
export const AccountId = businessId(
  'Technical identifier of the card account, unique per tenant',
  'ACC-0001',
);
export const UsageGroupCode = businessId('Code of the usage group, unique per tenant', 'STANDARD_DEBIT');

const ServiceCodeEnum = z.enum(SERVICE_CODE_VALUES as [string, ...string[]]);
const NetworkEnum = z.enum(NETWORKS).describe('Card network; service codes 10 and 11 exist on VISA only');
const CardTypeEnum = z.enum(['DEBIT', 'CREDIT', 'PREPAID', 'GIFT']).describe('Card type');
const StatusEnum = z.enum(['ACTIVE', 'BLOCKED', 'CLOSED']);

const SETTINGS_EXAMPLE = {
  authorisationTypes: [
    { serviceCode: '00', allowed: true },
    { serviceCode: '0A', allowed: true },
    { serviceCode: '0C', allowed: true },
    { serviceCode: '01', allowed: false },
    { serviceCode: '20', allowed: true },
    { serviceCode: '30', allowed: true },
  ],
  renewable: true,
  xpaysAllowed: false,
};

// ---------------------------------------------------------------- accounts

export const CreateAccountBody = z
  .object({
    accountId: AccountId,
    type: z.enum(['CURRENT', 'CREDIT', 'PREPAID']).describe('Kind of account the cards draw on'),
    currencyCode: z
      .string()
      .regex(/^[A-Z]{3}$/, 'an ISO 4217 alphabetic code, e.g. EUR')
      .describe('ISO 4217 currency of the account'),
    status: z.enum(['ACTIVE', 'BLOCKED']).default('ACTIVE').describe('Initial status; ACTIVE when omitted'),
  })
  .strict()
  .meta({
    id: 'CreateAccountRequest',
    example: { accountId: 'ACC-0001', type: 'CURRENT', currencyCode: 'EUR' },
  });

export const AccountResponse = z
  .object({
    accountId: AccountId,
    type: z.enum(['CURRENT', 'CREDIT', 'PREPAID']),
    currencyCode: z.string().describe('ISO 4217 currency'),
    status: StatusEnum,
    createdAt: z.iso.datetime().describe('When the account was created'),
  })
  .meta({
    id: 'Account',
    example: {
      accountId: 'ACC-0001',
      type: 'CURRENT',
      currencyCode: 'EUR',
      status: 'ACTIVE',
      createdAt: '2025-11-20T09:00:00.000Z',
    },
  });

// ---------------------------------------------------------------- service codes

export const ServiceCodeResponse = z
  .object({
    serviceCode: z.string().describe('Service code (authorisation type)'),
    name: z.string().describe('Name in the language of Accept-Language'),
    meaning: z.string().describe('Meaning in the language of Accept-Language'),
    networks: z.array(NetworkEnum).describe('Networks on which the code exists'),
  })
  .meta({
    id: 'ServiceCode',
    example: { serviceCode: '10', name: 'Account funding', meaning: 'VISA only. …', networks: ['VISA'] },
  });

export const ServiceCodeListResponse = z.object({ items: z.array(ServiceCodeResponse) }).meta({
  id: 'ServiceCodeList',
  example: {
    items: [
      {
        serviceCode: '00',
        name: 'POS purchases contact (chip)',
        meaning: '…',
        networks: ['VISA', 'MASTERCARD'],
      },
    ],
  },
});

// ---------------------------------------------------------------- usage groups

const allowedServiceCodes = z
  .array(ServiceCodeEnum)
  .min(1)
  .max(SERVICE_CODE_VALUES.length)
  .refine((codes) => new Set(codes).size === codes.length, 'each service code at most once')
  .describe('Service codes cards of this group may use; 10 and 11 only apply to VISA cards');

export const CreateUsageGroupBody = z
  .object({
    code: UsageGroupCode,
    name: z.string().trim().min(1).max(200).describe('Display name'),
    allowedServiceCodes,
  })
  .strict()
  .meta({
    id: 'CreateUsageGroupRequest',
    example: {
      code: 'STANDARD_DEBIT',
      name: 'Standard debit',
      allowedServiceCodes: ['00', '0A', '0C', '01', '20', '30'],
    },
  });

export const UpdateUsageGroupBody = z
  .object({ name: z.string().trim().min(1).max(200).describe('Display name'), allowedServiceCodes })
  .strict()
  .meta({
    id: 'UpdateUsageGroupRequest',
    example: { name: 'ATM only', allowedServiceCodes: ['01', '30', '39'] },
  });

export const UsageGroupResponse = z
  .object({
    code: UsageGroupCode,
    name: z.string(),
    allowedServiceCodes: z.array(z.string()).describe('In catalog order'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({
    id: 'UsageGroup',
    example: {
      code: 'ATM_ONLY',
      name: 'ATM only',
      allowedServiceCodes: ['01', '21', '30', '39'],
      createdAt: '2025-11-20T09:00:00.000Z',
      updatedAt: '2025-11-20T09:00:00.000Z',
    },
  });

export const UsageGroupListResponse = z
  .object({ items: z.array(UsageGroupResponse) })
  .meta({ id: 'UsageGroupList' });

// ---------------------------------------------------------------- settings

export const AuthorisationTypeEntry = z
  .object({
    serviceCode: z.string().min(1).max(8).describe('One of the service codes of GET /api/v1/service-codes'),
    allowed: z.boolean().describe('true: authorisations with this service code are allowed for the card'),
  })
  .strict()
  .meta({ id: 'AuthorisationType', example: { serviceCode: '0C', allowed: true } });

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

export const CardSettingsView = z
  .object({
    cardId: CardId,
    usageGroup: UsageGroupCode,
    network: NetworkEnum,
    status: StatusEnum,
    version: z.number().int().describe('Settings version; +1 on every effective change'),
    changedAt: z.iso.datetime().describe('When the settings last changed (or the card was provisioned)'),
    authorisationTypes: z.array(AuthorisationTypeEntry),
    renewable: z.boolean(),
    xpaysAllowed: z.boolean(),
  })
  .meta({
    id: 'CardSettingsView',
    example: {
      cardId: 'CARD-VISA-0001',
      usageGroup: 'STANDARD_DEBIT',
      network: 'VISA',
      status: 'ACTIVE',
      version: 3,
      changedAt: '2025-11-20T09:30:00.000Z',
      ...SETTINGS_EXAMPLE,
    },
  });

export const HistoryQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(200).default(50).describe('Entries per page, newest first'),
    beforeVersion: z.coerce
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Only versions below this one (the next page)'),
  })
  .strict()
  .meta({ id: 'SettingsHistoryQuery' });

export const SettingsHistoryEntry = z
  .object({
    version: z.number().int().describe('Settings version this change created'),
    changedAt: z.iso.datetime(),
    changedFields: z.array(z.string()).describe('e.g. authorisationTypes.0C, renewable'),
    cause: z
      .enum(['SETTINGS_CHANGE', 'USAGE_GROUP_CHANGE'])
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
  .meta({
    id: 'CardSettingsHistory',
    example: {
      cardId: 'CARD-VISA-0001',
      items: [
        {
          version: 2,
          changedAt: '2025-11-20T09:30:00.000Z',
          changedFields: ['authorisationTypes.01', 'xpaysAllowed'],
          cause: 'SETTINGS_CHANGE',
          previous: {
            authorisationTypes: [{ serviceCode: '01', allowed: true }],
            renewable: true,
            xpaysAllowed: false,
          },
          current: {
            authorisationTypes: [{ serviceCode: '01', allowed: false }],
            renewable: true,
            xpaysAllowed: true,
          },
          tokenId: '0b6f2c3e-8a51-4f0e-9a43-3f7a3c1d2e10',
          requestId: 'req-42',
        },
      ],
      nextBeforeVersion: null,
    },
  });

// ---------------------------------------------------------------- cards

export const CreateCardBody = z
  .object({
    cardId: CardId,
    accountId: AccountId.describe('Account the card draws on; must exist and not be closed'),
    network: NetworkEnum,
    cardType: CardTypeEnum,
    usageGroup: UsageGroupCode.describe("Code of one of the tenant's usage groups"),
    status: z.enum(['ACTIVE', 'BLOCKED']).default('ACTIVE').describe('Initial status; ACTIVE when omitted'),
    settings: ChangeCardSettingsBody.optional().describe(
      'Initial settings, checked by the same rules as a change; when omitted every service code of the usage group is allowed, renewable is true and xpaysAllowed false',
    ),
  })
  .strict()
  .meta({
    id: 'CreateCardRequest',
    example: {
      cardId: 'CARD-VISA-0001',
      accountId: 'ACC-0001',
      network: 'VISA',
      cardType: 'DEBIT',
      usageGroup: 'STANDARD_DEBIT',
    },
  });

export const CardResponse = z
  .object({
    cardId: CardId,
    accountId: AccountId,
    network: NetworkEnum,
    cardType: CardTypeEnum,
    usageGroup: UsageGroupCode,
    status: StatusEnum,
    settings: CardSettingsResponse,
    settingsVersion: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: 'Card',
    example: {
      cardId: 'CARD-VISA-0001',
      accountId: 'ACC-0001',
      network: 'VISA',
      cardType: 'DEBIT',
      usageGroup: 'STANDARD_DEBIT',
      status: 'ACTIVE',
      settings: SETTINGS_EXAMPLE,
      settingsVersion: 1,
      createdAt: '2025-11-20T09:00:00.000Z',
    },
  });

export const ChangeCardStatusBody = z
  .object({ status: StatusEnum.describe('ACTIVE and BLOCKED switch both ways; CLOSED is final') })
  .strict()
  .meta({ id: 'ChangeCardStatusRequest', example: { status: 'BLOCKED' } });

// ---------------------------------------------------------------- authorisation check

export const AuthorisationCheckBody = z
  .object({ serviceCode: z.string().min(1).max(8).describe('Service code of the authorisation') })
  .strict()
  .meta({ id: 'AuthorisationCheckRequest', example: { serviceCode: '0C' } });

export const AuthorisationCheckResponse = z
  .object({
    cardId: CardId,
    serviceCode: z.string(),
    allowed: z.boolean(),
    reason: z
      .enum([
        'ALLOWED',
        'CARD_CLOSED',
        'CARD_BLOCKED',
        'NOT_SUPPORTED_BY_NETWORK',
        'NOT_IN_USAGE_GROUP',
        'DISABLED_IN_CARD_SETTINGS',
      ])
      .describe('Why; the most fundamental reason when several apply'),
    settingsVersion: z.number().int().describe('Version of the settings the answer was taken from'),
  })
  .meta({
    id: 'AuthorisationCheckResult',
    example: {
      cardId: 'CARD-VISA-0001',
      serviceCode: '01',
      allowed: false,
      reason: 'DISABLED_IN_CARD_SETTINGS',
      settingsVersion: 2,
    },
  });
