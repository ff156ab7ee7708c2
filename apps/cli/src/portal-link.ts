import { parseArgs } from 'node:util';
import type { DataSource } from 'typeorm';
import {
  AppConfig,
  portalBaseUrl,
  PortalLinks,
  PortalSessionRepository,
  TokenAdmin,
} from '@fincore/platform';

/** The options of portal:link, or the usage mistake in them. */
export function portalLinkOptions(args: string[]): { tenant: string; readOnly: boolean } | string {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: { tenant: { type: 'string' }, 'read-only': { type: 'boolean' } },
      allowPositionals: false,
      strict: true,
    }));
  } catch (error) {
    return (error as Error).message;
  }
  if (!values.tenant) return '--tenant is required';
  return { tenant: values.tenant, readOnly: values['read-only'] ?? false };
}

/** A one-time portal link for the tenant, as POST /api/v1/portal-sessions answers it; null for an unknown tenant. */
export async function createPortalLink(
  ds: DataSource,
  config: AppConfig,
  options: { tenant: string; readOnly: boolean },
): Promise<string | null> {
  const tenant = await new TokenAdmin(ds).findTenant(options.tenant);
  if (!tenant) return null;
  const links = new PortalLinks(new PortalSessionRepository(ds), portalBaseUrl(config));
  return (await links.create(tenant.id, options.readOnly)).url;
}
