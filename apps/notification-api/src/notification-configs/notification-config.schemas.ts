import { z } from 'zod';
import { CHANNEL_CODES, ChannelCode as Channel } from '@fincore/notifications';
import { NotificationTypeCode, nullableTimestamp, oneOf, timestamp } from '../common/common.schemas';
import {
  notificationConfigExample,
  notificationConfigRequestExample,
  notificationTypeExample,
} from './notification-config.examples';

export const ChannelCode = z
  .enum(Channel, { error: oneOf(CHANNEL_CODES) })
  .describe(`Channel: ${CHANNEL_CODES.join(', ')} (only WEBHOOK is implemented)`);

export const NotificationConfigRequest = z
  .object({ notificationTypeCode: NotificationTypeCode, channelCode: ChannelCode })
  .strict()
  .meta({ id: 'NotificationConfigRequest', example: notificationConfigRequestExample });

export const NotificationConfigResponse = z
  .object({
    notificationTypeCode: z.string().describe('As sent'),
    channelCode: z.string().describe('As sent'),
    enabled: z.boolean().describe('Whether notifications of this type are generated through this channel'),
    enabledAt: nullableTimestamp.describe('Since when; events that occurred earlier produce no notification'),
    updatedAt: timestamp,
  })
  .meta({ id: 'NotificationConfig', example: notificationConfigExample });

export const NotificationConfigList = z
  .object({ items: z.array(NotificationConfigResponse) })
  .meta({ id: 'NotificationConfigList', example: { items: [notificationConfigExample] } });

export const NotificationTypeResponse = z
  .object({
    code: z
      .string()
      .describe('Notification type code, as used by notification-config and in webhook envelopes (`type`)'),
    description: z.string(),
    channels: z.array(z.string()).describe('Channels through which this type can be delivered'),
    dataSchema: z.record(z.string(), z.unknown()).describe('JSON Schema (2020-12) of the envelope `data`'),
    thinDataSchema: z
      .record(z.string(), z.unknown())
      .describe('JSON Schema (2020-12) of the envelope `data` sent to an endpoint with payload THIN'),
    example: z.record(z.string(), z.unknown()).describe('An example of the envelope `data`'),
  })
  .meta({ id: 'NotificationType', example: notificationTypeExample });

export const NotificationTypeList = z
  .object({ items: z.array(NotificationTypeResponse) })
  .meta({ id: 'NotificationTypeList' });

export type NotificationConfigRequest = z.infer<typeof NotificationConfigRequest>;
export type NotificationConfigResponse = z.infer<typeof NotificationConfigResponse>;
export type NotificationTypeResponse = z.infer<typeof NotificationTypeResponse>;
