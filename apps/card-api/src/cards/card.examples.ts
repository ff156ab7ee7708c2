import { SETTINGS_EXAMPLE } from '../card-settings/card-settings.examples';

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
