import type { EntityManager } from 'typeorm';
import type { DemoSeed, TenantEntity } from '@fincore/platform';
import { applicableServiceCodes } from './domain/card-settings';
import { SERVICE_CODE_VALUES } from './domain/service-codes';
import { AccountEntity } from './entities/account.entity';
import { CardEntity } from './entities/card.entity';
import { CardSettingsChangeEntity } from './entities/card-settings-change.entity';
import { UsageGroupEntity } from './entities/usage-group.entity';

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
  { accountId: 'ACC-DEMO-001', type: 'CURRENT' as const, currencyCode: 'EUR' },
  { accountId: 'ACC-DEMO-002', type: 'CREDIT' as const, currencyCode: 'EUR' },
  { accountId: 'ACC-DEMO-003', type: 'PREPAID' as const, currencyCode: 'EUR' },
];

const CARDS = [
  {
    cardId: 'CARD-DEMO-VISA-1',
    accountId: 'ACC-DEMO-001',
    network: 'VISA' as const,
    cardType: 'DEBIT' as const,
    usageGroup: 'STANDARD_DEBIT',
  },
  {
    cardId: 'CARD-DEMO-MC-1',
    accountId: 'ACC-DEMO-001',
    network: 'MASTERCARD' as const,
    cardType: 'DEBIT' as const,
    usageGroup: 'STANDARD_DEBIT',
  },
  {
    cardId: 'CARD-DEMO-VISA-CREDIT-1',
    accountId: 'ACC-DEMO-002',
    network: 'VISA' as const,
    cardType: 'CREDIT' as const,
    usageGroup: 'VISA_ALL',
  },
  {
    cardId: 'CARD-DEMO-MC-ATM-1',
    accountId: 'ACC-DEMO-003',
    network: 'MASTERCARD' as const,
    cardType: 'PREPAID' as const,
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
    const insert = (entity: Function, values: object[]) =>
      manager.createQueryBuilder().insert().into(entity).values(values).orIgnore().execute();
    await insert(
      UsageGroupEntity,
      USAGE_GROUPS.map((g) => ({ tenantId, ...g })),
    );
    await insert(
      AccountEntity,
      ACCOUNTS.map((a) => ({ tenantId, ...a, status: 'ACTIVE' })),
    );
    await insert(
      CardEntity,
      CARDS.map((c) => {
        const group = USAGE_GROUPS.find((g) => g.code === c.usageGroup)!;
        const codes = applicableServiceCodes({
          network: c.network,
          usageGroupCodes: group.allowedServiceCodes,
        });
        return {
          tenantId,
          ...c,
          status: 'ACTIVE',
          authorisationTypes: Object.fromEntries(codes.map((code) => [code, true])),
          renewable: true,
          xpaysAllowed: false,
          settingsVersion: 1,
          settingsChangedAt: new Date(),
        };
      }),
    );
    const groups = await manager
      .getRepository(UsageGroupEntity)
      .find({ where: { tenantId }, order: { code: 'ASC' } });
    const accounts = await manager
      .getRepository(AccountEntity)
      .find({ where: { tenantId }, order: { accountId: 'ASC' } });
    const cards = await manager
      .getRepository(CardEntity)
      .find({ where: { tenantId }, order: { cardId: 'ASC' } });
    return {
      usageGroups: groups.map((g) => ({ code: g.code, allowedServiceCodes: g.allowedServiceCodes })),
      accounts: accounts.map((a) => ({ accountId: a.accountId, type: a.type, currencyCode: a.currencyCode })),
      cards: cards.map((c) => ({
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
