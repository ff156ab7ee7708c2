import { Inject, Injectable } from '@nestjs/common';
import { PortalLinks, PortalSessionRepository, Principal } from '@fincore/platform';
import type { PortalSessionRequest } from './portal-session.schemas';
import { portalSessionRequired } from './portal.problems';

@Injectable()
export class PortalSessionsService {
  constructor(
    @Inject(PortalLinks) private readonly links: PortalLinks,
    private readonly sessions: PortalSessionRepository,
  ) {}

  /** A one-time link for the caller's tenant; the code is in the answer only. */
  async create(principal: Principal, body: PortalSessionRequest) {
    const link = await this.links.create(principal.tenantId, body.readOnly ?? false);
    return { url: link.url, expiresAt: link.expiresAt.toISOString() };
  }

  /** What the portal shows and offers: a read-only session gets no controls for changes. */
  caller(principal: Principal) {
    return { tenantCode: principal.tenantCode, canChange: principal.scopes.includes('notifications:write') };
  }

  /** Signs out: ends the session that carried the request; an API token has none. */
  async end(principal: Principal): Promise<void> {
    if (!principal.portalSessionId) throw portalSessionRequired();
    await this.sessions.end(principal.portalSessionId);
  }

  open(code: unknown) {
    return this.links.open(code);
  }
}
