import type { z } from 'zod';
import { inCatalogOrder } from '../domain/service-codes';
import type { UsageGroupEntity } from './usage-group.entity';
import type { UsageGroupListResponse, UsageGroupResponse } from './usage-group.schemas';

export function mapUsageGroup(group: UsageGroupEntity): z.infer<typeof UsageGroupResponse> {
  return {
    code: group.code,
    name: group.name,
    allowedServiceCodes: inCatalogOrder(group.allowedServiceCodes),
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}

export function mapUsageGroupList(groups: UsageGroupEntity[]): z.infer<typeof UsageGroupListResponse> {
  return { items: groups.map(mapUsageGroup) };
}
