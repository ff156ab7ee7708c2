import { SETTINGS_EXAMPLE } from '../card/card.examples';

export const SETTINGS_VIEW_EXAMPLE = {
  cardId: 'CARD-VISA-0001',
  usageGroup: 'STANDARD_DEBIT',
  network: 'VISA',
  status: 'ACTIVE',
  version: 3,
  changedAt: '2025-11-20T09:30:00.000Z',
  ...SETTINGS_EXAMPLE,
};

export const SETTINGS_HISTORY_EXAMPLE = {
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
};

export const AUTHORISATION_CHECK_EXAMPLE = { serviceCode: '0C' };

export const AUTHORISATION_CHECK_RESULT_EXAMPLE = {
  cardId: 'CARD-VISA-0001',
  serviceCode: '01',
  allowed: false,
  reason: 'DISABLED_IN_CARD_SETTINGS',
  settingsVersion: 2,
};
