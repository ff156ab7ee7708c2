import { z } from 'zod';
import { oneOf, timestamp } from '../common/common.schemas';
import { STATS_WINDOWS } from './domain/stats-window';
import { endpointDeliveryStatsExample, endpointHealthListExample } from './endpoint-activity.examples';

export const StatsQuery = z
  .object({
    window: z
      .enum(STATS_WINDOWS, { error: oneOf(STATS_WINDOWS) })
      .default('24h')
      .describe('The last 24 hours or the last 7 days, in whole UTC hours'),
  })
  .strict();
export type StatsQuery = z.infer<typeof StatsQuery>;

const Counts = z.object({
  succeeded: z.number().int().describe('Delivered (a 2xx answer)'),
  failed: z.number().int().describe('Given up after the last retry, or ended by the endpoint being disabled'),
  pending: z.number().int().describe('Still on their way: first attempt or a retry to come'),
});

export const EndpointDeliveryStats = z
  .object({
    endpointId: z.uuid(),
    window: z.enum(STATS_WINDOWS),
    from: timestamp.describe('Start of the first hour'),
    until: timestamp.describe('End of the last hour (the current one)'),
    total: Counts.describe('Sums over the window'),
    hours: z
      .array(Counts.extend({ hour: timestamp.describe('Start of the UTC hour') }))
      .describe(
        'One entry per hour, oldest first, zeros included; deliveries counted by the hour they were created and the status they have now',
      ),
  })
  .meta({ id: 'EndpointDeliveryStats', example: endpointDeliveryStatsExample });

export const EndpointHealthList = z
  .object({
    window: z.literal('24h'),
    from: timestamp.describe('Start of the first hour, as in the 24h statistics'),
    until: timestamp.describe('End of the current hour'),
    items: z
      .array(
        z.object({
          endpointId: z.uuid(),
          deliveries: Counts.describe('Deliveries created in the window, by the status they have now'),
          p95DurationMs: z
            .number()
            .int()
            .nullable()
            .describe(
              "95th percentile of the duration of those deliveries' attempts, in ms (an observed duration); null: no attempt",
            ),
        }),
      )
      .describe(
        'Every endpoint of the tenant, in the order they are listed; zeros for one without deliveries',
      ),
  })
  .meta({ id: 'WebhookEndpointHealthList', example: endpointHealthListExample });
