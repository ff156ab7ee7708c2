import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Principal } from '@fincore/platform';
import { UnitOfWork } from '@fincore/events';
import { inCatalogOrder } from '../domain/service-codes';
import { UsageGroupCards } from './usage-group-cards';
import { mapUsageGroup, mapUsageGroupList } from './usage-group.mapper';
import { usageGroupExists, usageGroupNotFound } from './usage-group.problems';
import { UsageGroupRepository } from './usage-group.repository';
import type { CreateUsageGroupBody, UpdateUsageGroupBody } from './usage-group.schemas';

/** Usage groups of a tenant: the service codes their cards may use. */
@Injectable()
export class UsageGroupsService {
  constructor(
    private readonly usageGroups: UsageGroupRepository,
    private readonly uow: UnitOfWork,
    private readonly cards: UsageGroupCards,
  ) {}

  async createUsageGroup(principal: Principal, body: z.infer<typeof CreateUsageGroupBody>) {
    const group = await this.usageGroups.createIfNew({
      tenantId: principal.tenantId,
      code: body.code,
      name: body.name,
      allowedServiceCodes: inCatalogOrder(body.allowedServiceCodes),
    });
    if (!group) throw usageGroupExists(body.code);
    return mapUsageGroup(group);
  }

  async listUsageGroups(principal: Principal) {
    return mapUsageGroupList(await this.usageGroups.listByTenant(principal.tenantId));
  }

  async getUsageGroup(principal: Principal, code: string) {
    const group = await this.usageGroups.findByCode(principal.tenantId, code);
    if (!group) throw usageGroupNotFound(code);
    return mapUsageGroup(group);
  }

  /**
   * Changes what a group allows, with effect on its cards at once (see
   * UsageGroupCards). The group is locked first, then its cards: the
   * order every change in the card context takes.
   */
  async updateUsageGroup(principal: Principal, code: string, body: z.infer<typeof UpdateUsageGroupBody>) {
    return this.uow.run(async (tx) => {
      const group = await this.usageGroups.lockForUpdate(tx.manager, principal.tenantId, code);
      if (!group) throw usageGroupNotFound(code);
      const previousCodes = group.allowedServiceCodes;
      group.name = body.name;
      group.allowedServiceCodes = inCatalogOrder(body.allowedServiceCodes);
      const saved = await this.usageGroups.save(tx.manager, group);
      await this.cards.applyUsageGroupChange(tx, principal, previousCodes, saved);
      return mapUsageGroup(saved);
    });
  }
}
