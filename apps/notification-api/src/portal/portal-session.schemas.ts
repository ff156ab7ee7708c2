import { z } from 'zod';
import { timestamp } from '../common/common.schemas';
import { portalSessionExample, portalSessionRequestExample } from './portal-session.examples';

export const PortalSessionRequest = z
  .object({
    readOnly: z
      .boolean()
      .optional()
      .describe('True: the session may look but change nothing (default false)'),
  })
  .strict()
  .meta({ id: 'PortalSessionRequest', example: portalSessionRequestExample })
  // No body at all is a read-write link, as `curl -X POST` without -d asks for.
  .default({});
export type PortalSessionRequest = z.infer<typeof PortalSessionRequest>;

export const PortalSessionResponse = z
  .object({
    url: z
      .string()
      .describe('One-time link to the portal; opening it starts a 12-hour session for the tenant'),
    expiresAt: timestamp.describe('The link must be opened before this time (10 minutes)'),
  })
  .meta({ id: 'PortalSession', example: portalSessionExample });

export const PortalCaller = z
  .object({
    tenantCode: z.string().describe("The caller's tenant"),
    canChange: z
      .boolean()
      .describe(
        'False for a read-only portal session (or a token without notifications:write): the portal offers no changes',
      ),
  })
  .meta({ id: 'PortalCaller', example: { tenantCode: 'ACME', canChange: true } });
