import { z } from 'zod';
import { EVENT_TYPES } from '@fincore/events';

export const oneOf = (values: readonly string[]) => () => `must be one of ${values.join(', ')}`;
export const timestamp = z.iso.datetime({ offset: true });
export const nullableTimestamp = timestamp.nullable();

export const NotificationTypeCode = z
  .enum(EVENT_TYPES as [string, ...string[]], { error: oneOf(EVENT_TYPES) })
  .describe(`Notification type: ${EVENT_TYPES.join(', ')}`);
export const EntityId = z.uuid({ error: 'must be a UUID' });
