import type { EntityManager } from 'typeorm';
import type { DemoSeed, TenantEntity } from '@fincore/platform';
import { AccountEntity } from './accounts/account.entity';
import { AccountRepository } from './accounts/account.repository';
import { AccountStatus, AccountType } from './domain/account';
import { CardSettingsChangeEntity } from './card/card-settings-change.entity';
import { applicableServiceCodes } from './domain/card-settings';
import { Network, SERVICE_CODE_VALUES } from './domain/service-codes';
import { UsageGroupEntity } from './usage-groups/usage-group.entity';
import { UsageGroupRepository } from './usage-groups/usage-group.repository';
import { CardEntity } from './card/card.entity';
import { CardRepository } from './card/card.repository';
import { CardStatus } from './domain/card-status';
import { CardType } from './domain/card-type';

const USAGE_GROUPS = [
  {
    code: 'STANDARD_DEBIT',
    name: 'Standard debit',
    allowedServiceCodes: ['00', '0A', '0C', '0M', '01', '09', '20', '30', '39'],
  },
  { code: 'VISA_ALL', name: 'VISA, every service code', allowedServiceCodes: [...SERVICE_CODE_VALUES] },
  { code: 'ATM_ONLY', name: 'ATM only', allowedServiceCodes: ['01', '21', '30', '39'] },
];

const ACCOUNTS = [
  { accountId: 'ACC-DEMO-001', type: AccountType.CURRENT, currencyCode: 'EUR' },
  { accountId: 'ACC-DEMO-002', type: AccountType.CREDIT, currencyCode: 'EUR' },
  { accountId: 'ACC-DEMO-003', type: AccountType.PREPAID, currencyCode: 'EUR' },
];

const CARDS = [
  {
    cardId: 'CARD-DEMO-VISA-1',
    accountId: 'ACC-DEMO-001',
    network: Network.VISA,
    cardType: CardType.DEBIT,
    usageGroup: 'STANDARD_DEBIT',
  },
  {
    cardId: 'CARD-DEMO-MC-1',
    accountId: 'ACC-DEMO-001',
    network: Network.MASTERCARD,
    cardType: CardType.DEBIT,
    usageGroup: 'STANDARD_DEBIT',
  },
  {
    cardId: 'CARD-DEMO-VISA-CREDIT-1',
    accountId: 'ACC-DEMO-002',
    network: Network.VISA,
    cardType: CardType.CREDIT,
    usageGroup: 'VISA_ALL',
  },
  {
    cardId: 'CARD-DEMO-MC-ATM-1',
    accountId: 'ACC-DEMO-003',
    network: Network.MASTERCARD,
    cardType: CardType.PREPAID,
    usageGroup: 'ATM_ONLY',
  },
];

/**
 * Usage groups (standard debit, VISA with every code, ATM only), three accounts and cards of both
 * networks. New cards start like provisioned ones: every applicable code allowed, renewable, no xpays.
 * Idempotent: inserts what is missing and leaves changed settings alone.
 */
export const CardsDemoSeed: DemoSeed = {
  context: 'cards',
  entities: [AccountEntity, UsageGroupEntity, CardEntity, CardSettingsChangeEntity],
  async seed(manager: EntityManager, tenant: TenantEntity) {
    const tenantId = tenant.id;
    const usageGroups = new UsageGroupRepository(manager.dataSource);
    const accounts = new AccountRepository(manager.dataSource);
    const cards = new CardRepository(manager.dataSource, usageGroups);
    await usageGroups.createMissing(
      manager,
      USAGE_GROUPS.map((g) => ({ tenantId, ...g })),
    );
    await accounts.createMissing(
      manager,
      ACCOUNTS.map((a) => ({ tenantId, ...a, status: AccountStatus.ACTIVE })),
    );
    await cards.createMissing(
      manager,
      CARDS.map((c) => {
        const group = USAGE_GROUPS.find((g) => g.code === c.usageGroup)!;
        const codes = applicableServiceCodes({
          network: c.network,
          usageGroupCodes: group.allowedServiceCodes,
        });
        return {
          tenantId,
          ...c,
          status: CardStatus.ACTIVE,
          authorisationTypes: Object.fromEntries(codes.map((code) => [code, true])),
          renewable: true,
          xpaysAllowed: false,
          settingsVersion: 1,
          settingsChangedAt: new Date(),
        };
      }),
    );
    return {
      usageGroups: (await usageGroups.listByTenant(manager, tenantId)).map((g) => ({
        code: g.code,
        allowedServiceCodes: g.allowedServiceCodes,
      })),
      accounts: (await accounts.listByTenant(manager, tenantId)).map((a) => ({
        accountId: a.accountId,
        type: a.type,
        currencyCode: a.currencyCode,
      })),
      cards: (await cards.listByTenant(manager, tenantId)).map((c) => ({
        cardId: c.cardId,
        accountId: c.accountId,
        network: c.network,
        cardType: c.cardType,
        usageGroup: c.usageGroup,
        status: c.status,
      })),
    };
  },
};
