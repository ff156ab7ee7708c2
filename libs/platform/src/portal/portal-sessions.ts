import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../context/principal';
import { cookieValue, PORTAL_COOKIE } from './portal-cookie';
import { looksLikePortalSecret, portalSecretDigest } from './portal-secret';
import { PortalSessionRepository } from './portal-session.repository';

/** What a portal session may do: a read-only one reads, the other also changes. */
export const PORTAL_READ_SCOPES = Object.freeze(['notifications:read']);
export const PORTAL_WRITE_SCOPES = Object.freeze(['notifications:read', 'notifications:write']);

/** Resolves the portal's session cookie to a principal bound to the session's tenant. */
@Injectable()
export class PortalSessions {
  constructor(@Inject(PortalSessionRepository) private readonly sessions: PortalSessionRepository) {}

  /** True when the Cookie header carries a portal session cookie at all. */
  carriesSession(cookieHeader: string | string[] | undefined): boolean {
    return cookieValue(cookieHeader, PORTAL_COOKIE) !== undefined;
  }

  async authenticate(cookieHeader: string | string[] | undefined): Promise<Principal | undefined> {
    const secret = cookieValue(cookieHeader, PORTAL_COOKIE);
    if (!secret || !looksLikePortalSecret(secret)) return undefined;
    const session = await this.sessions.findActive(portalSecretDigest(secret));
    if (!session) return undefined;
    return {
      tokenId: session.id,
      tenantId: session.tenantId,
      tenantCode: session.tenantCode,
      scopes: session.readOnly ? PORTAL_READ_SCOPES : PORTAL_WRITE_SCOPES,
      portalSessionId: session.id,
    };
  }
}
