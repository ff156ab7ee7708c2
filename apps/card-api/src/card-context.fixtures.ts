import type { Principal } from '@fincore/platform';
import { AccountEntity } from './cards/accounts/account.entity';
import { CardEntity } from './cards/card/card.entity';
import { UsageGroupEntity } from './cards/usage-groups/usage-group.entity';

/** Builders for the card context's service specs: entities as the repositories return them. */

export const principal: Principal = {
  tokenId: 'token-1',
  tenantId: 'tenant-1',
  tenantCode: 'ACME',
  scopes: ['cards:read', 'cards:write'],
};

const CREATED_AT = new Date('2025-11-20T09:00:00.000Z');

export function anAccount(overrides: Partial<AccountEntity> = {}): AccountEntity {
  return Object.assign(new AccountEntity(), {
    id: 'account-row-1',
    tenantId: principal.tenantId,
    accountId: 'ACC-1',
    type: 'CURRENT',
    currencyCode: 'EUR',
    status: 'ACTIVE',
    createdAt: CREATED_AT,
    ...overrides,
  });
}

export function aUsageGroup(overrides: Partial<UsageGroupEntity> = {}): UsageGroupEntity {
  return Object.assign(new UsageGroupEntity(), {
    id: 'group-row-1',
    tenantId: principal.tenantId,
    code: 'STANDARD',
    name: 'Standard',
    allowedServiceCodes: ['00', '01', '10'],
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    ...overrides,
  });
}

/** A VISA debit card of the STANDARD group with every code allowed, settings version 1. */
export function aCard(overrides: Partial<CardEntity> = {}): CardEntity {
  return Object.assign(new CardEntity(), {
    id: 'card-row-1',
    tenantId: principal.tenantId,
    cardId: 'CARD-1',
    accountId: 'ACC-1',
    network: 'VISA',
    cardType: 'DEBIT',
    usageGroup: 'STANDARD',
    status: 'ACTIVE',
    authorisationTypes: { '00': true, '01': true, '10': true },
    renewable: true,
    xpaysAllowed: false,
    settingsVersion: 1,
    settingsChangedAt: CREATED_AT,
    createdAt: CREATED_AT,
    ...overrides,
  });
}
