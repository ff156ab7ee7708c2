import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import type { z } from 'zod';
import { Principal, ProblemException } from '@fincore/platform';
import { UnitOfWork } from '@fincore/events';
import type {
  ChangeCardStatusBody,
  CreateAccountBody,
  CreateCardBody,
  CreateUsageGroupBody,
  UpdateUsageGroupBody,
} from './cards.schemas';
import { applicableServiceCodes, toFlags } from './domain/card-settings';
import { cardStatusTransition } from './domain/card-status';
import { inCatalogOrder } from './domain/service-codes';
import { AccountEntity } from './entities/account.entity';
import { CardEntity } from './entities/card.entity';
import { UsageGroupEntity } from './entities/usage-group.entity';
import { toAccountResponse, toCardResponse, toUsageGroupResponse } from './mapper';
import { CardSettingsService } from './card-settings.service';
import { assertSettingsAcceptable } from './settings-problems';

/** Provisioning: accounts, usage groups and cards of a tenant. */
@Injectable()
export class CardsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly uow: UnitOfWork,
    private readonly cardSettings: CardSettingsService,
  ) {}

  // ------------------------------------------------------------ accounts

  async createAccount(principal: Principal, body: z.infer<typeof CreateAccountBody>) {
    const repo = this.db.getRepository(AccountEntity);
    // ON CONFLICT DO NOTHING: a taken id is the caller's 409, not a failed query.
    const inserted = await repo
      .createQueryBuilder()
      .insert()
      .values({ tenantId: principal.tenantId, ...body })
      .orIgnore()
      .execute();
    if (inserted.identifiers.length === 0 || !inserted.identifiers[0])
      throw new ProblemException('account_exists', 409, { accountId: body.accountId });
    return toAccountResponse(
      await repo.findOneByOrFail({ tenantId: principal.tenantId, accountId: body.accountId }),
    );
  }

  async getAccount(principal: Principal, accountId: string) {
    const account = await this.db
      .getRepository(AccountEntity)
      .findOne({ where: { tenantId: principal.tenantId, accountId } });
    if (!account) throw new ProblemException('account_not_found', 404, { accountId });
    return toAccountResponse(account);
  }

  // ------------------------------------------------------------ usage groups

  async createUsageGroup(principal: Principal, body: z.infer<typeof CreateUsageGroupBody>) {
    const repo = this.db.getRepository(UsageGroupEntity);
    const inserted = await repo
      .createQueryBuilder()
      .insert()
      .values({
        tenantId: principal.tenantId,
        code: body.code,
        name: body.name,
        allowedServiceCodes: inCatalogOrder(body.allowedServiceCodes),
      })
      .orIgnore()
      .execute();
    if (inserted.identifiers.length === 0 || !inserted.identifiers[0])
      throw new ProblemException('usage_group_exists', 409, { code: body.code });
    return toUsageGroupResponse(
      await repo.findOneByOrFail({ tenantId: principal.tenantId, code: body.code }),
    );
  }

  async listUsageGroups(principal: Principal) {
    const groups = await this.db
      .getRepository(UsageGroupEntity)
      .find({ where: { tenantId: principal.tenantId }, order: { code: 'ASC' } });
    return { items: groups.map(toUsageGroupResponse) };
  }

  async getUsageGroup(principal: Principal, code: string) {
    return toUsageGroupResponse(await this.findUsageGroup(this.db.manager, principal.tenantId, code));
  }

  /**
   * Changes what a group allows, with effect on its cards at once: see
   * CardSettingsService.applyUsageGroupChange. The group is locked first, then its cards: the order
   * a settings change takes too.
   */
  async updateUsageGroup(principal: Principal, code: string, body: z.infer<typeof UpdateUsageGroupBody>) {
    return this.uow.run(async (tx) => {
      const group = await this.findUsageGroup(tx.manager, principal.tenantId, code, true);
      const previousCodes = group.allowedServiceCodes;
      group.name = body.name;
      group.allowedServiceCodes = inCatalogOrder(body.allowedServiceCodes);
      const saved = await tx.manager.getRepository(UsageGroupEntity).save(group);
      await this.cardSettings.applyUsageGroupChange(tx, principal, previousCodes, saved);
      return toUsageGroupResponse(saved);
    });
  }

  private async findUsageGroup(
    manager: EntityManager,
    tenantId: string,
    code: string,
    lock = false,
  ): Promise<UsageGroupEntity> {
    const group = await manager.getRepository(UsageGroupEntity).findOne({
      where: { tenantId, code },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!group) throw new ProblemException('usage_group_not_found', 404, { code });
    return group;
  }

  // ------------------------------------------------------------ cards

  async createCard(principal: Principal, body: z.infer<typeof CreateCardBody>) {
    return this.db.transaction(async (manager) => {
      const tenantId = principal.tenantId;
      const account = await manager
        .getRepository(AccountEntity)
        .findOne({ where: { tenantId, accountId: body.accountId } });
      if (!account) throw new ProblemException('unknown_account', 422, { accountId: body.accountId });
      if (account.status === 'CLOSED')
        throw new ProblemException('account_closed', 422, { accountId: body.accountId });
      // FOR SHARE: a concurrent change of the group waits, so the card's flags fit the group in force.
      const group = await manager
        .getRepository(UsageGroupEntity)
        .findOne({ where: { tenantId, code: body.usageGroup }, lock: { mode: 'pessimistic_read' } });
      if (!group) throw new ProblemException('unknown_usage_group', 422, { code: body.usageGroup });

      const profile = { network: body.network, usageGroupCodes: group.allowedServiceCodes };
      let flags: Record<string, boolean>;
      if (body.settings) {
        assertSettingsAcceptable(
          body.settings.authorisationTypes,
          profile,
          { cardId: body.cardId, usageGroup: group.code },
          'settings.authorisationTypes',
        );
        flags = toFlags(body.settings.authorisationTypes);
      } else {
        flags = Object.fromEntries(applicableServiceCodes(profile).map((code) => [code, true]));
      }
      const repo = manager.getRepository(CardEntity);
      const inserted = await repo
        .createQueryBuilder()
        .insert()
        .values({
          tenantId,
          cardId: body.cardId,
          accountId: body.accountId,
          network: body.network,
          cardType: body.cardType,
          usageGroup: group.code,
          status: body.status,
          authorisationTypes: flags,
          renewable: body.settings?.renewable ?? true,
          xpaysAllowed: body.settings?.xpaysAllowed ?? false,
          settingsVersion: 1,
          settingsChangedAt: new Date(),
        })
        .orIgnore()
        .execute();
      if (inserted.identifiers.length === 0 || !inserted.identifiers[0])
        throw new ProblemException('card_exists', 409, { cardId: body.cardId });
      return toCardResponse(await repo.findOneByOrFail({ tenantId, cardId: body.cardId }), group);
    });
  }

  async getCard(principal: Principal, cardId: string) {
    const { card, group } = await this.findCard(this.db.manager, principal.tenantId, cardId);
    return toCardResponse(card, group);
  }

  /** Blocks, unblocks or closes a card; serialised with settings changes by the card's row lock. */
  async changeStatus(principal: Principal, cardId: string, body: z.infer<typeof ChangeCardStatusBody>) {
    return this.db.transaction(async (manager) => {
      const { card, group } = await this.findCard(manager, principal.tenantId, cardId, true);
      const transition = cardStatusTransition(card.status, body.status);
      if (transition.kind === 'refused') throw new ProblemException('card_closed', 409, { cardId });
      if (transition.kind === 'change') {
        card.status = body.status;
        await manager.getRepository(CardEntity).update({ id: card.id }, { status: body.status });
      }
      return toCardResponse(card, group);
    });
  }

  private async findCard(manager: EntityManager, tenantId: string, cardId: string, lock = false) {
    const card = await manager.getRepository(CardEntity).findOne({
      where: { tenantId, cardId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!card) throw new ProblemException('card_not_found', 404, { cardId });
    const group = await manager
      .getRepository(UsageGroupEntity)
      .findOneOrFail({ where: { tenantId, code: card.usageGroup } });
    return { card, group };
  }
}
