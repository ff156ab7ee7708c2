export const SETTINGS_EXAMPLE = {
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

export const AUTHORISATION_TYPE_EXAMPLE = { serviceCode: '0C', allowed: true };

export const CREATE_CARD_EXAMPLE = {
  cardId: 'CARD-VISA-0001',
  accountId: 'ACC-0001',
  network: 'VISA',
  cardType: 'DEBIT',
  usageGroup: 'STANDARD_DEBIT',
};

export const CARD_EXAMPLE = {
  cardId: 'CARD-VISA-0001',
  accountId: 'ACC-0001',
  network: 'VISA',
  cardType: 'DEBIT',
  usageGroup: 'STANDARD_DEBIT',
  status: 'ACTIVE',
  settings: SETTINGS_EXAMPLE,
  settingsVersion: 1,
  createdAt: '2025-11-20T09:00:00.000Z',
};

export const BLOCKED_CARD_EXAMPLE = { ...CARD_EXAMPLE, status: 'BLOCKED' };

export const CHANGE_CARD_STATUS_EXAMPLE = { status: 'BLOCKED' };
