import { z } from 'zod';
import { freeText } from '@fincore/platform';
import { UsageGroupCode } from '../../identifiers.schemas';
import { SERVICE_CODE_VALUES } from '../domain/service-codes';
import {
  CREATE_USAGE_GROUP_EXAMPLE,
  UPDATE_USAGE_GROUP_EXAMPLE,
  USAGE_GROUP_EXAMPLE,
} from './usage-group.examples';

const allowedServiceCodes = z
  .array(z.enum(SERVICE_CODE_VALUES as [string, ...string[]]))
  .min(1)
  .max(SERVICE_CODE_VALUES.length)
  .refine((codes) => new Set(codes).size === codes.length, 'each service code at most once')
  .describe('Service codes cards of this group may use; 10 and 11 only apply to VISA cards');

export const CreateUsageGroupBody = z
  .object({
    code: UsageGroupCode,
    name: freeText({ max: 200 }).describe('Display name'),
    allowedServiceCodes,
  })
  .strict()
  .meta({ id: 'CreateUsageGroupRequest', example: CREATE_USAGE_GROUP_EXAMPLE });

export const UpdateUsageGroupBody = z
  .object({ name: freeText({ max: 200 }).describe('Display name'), allowedServiceCodes })
  .strict()
  .meta({ id: 'UpdateUsageGroupRequest', example: UPDATE_USAGE_GROUP_EXAMPLE });

export const UsageGroupResponse = z
  .object({
    code: UsageGroupCode,
    name: z.string(),
    allowedServiceCodes: z.array(z.string()).describe('In catalog order'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'UsageGroup', example: USAGE_GROUP_EXAMPLE });

export const UsageGroupListResponse = z
  .object({ items: z.array(UsageGroupResponse) })
  .meta({ id: 'UsageGroupList' });
