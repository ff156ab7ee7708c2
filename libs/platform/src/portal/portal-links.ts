import type { AppConfig } from '../config/config';
import { generatePortalSecret, portalSecretDigest, looksLikePortalSecret } from './portal-secret';
import type { LinkOpening, PortalSessionRepository } from './portal-session.repository';

/** How long a link may wait to be opened, and how long the session it opens lasts. */
export const PORTAL_LINK_SECONDS = 10 * 60;
export const PORTAL_SESSION_SECONDS = 12 * 3600;
/** Where the portal lives on the notification API, and the path that opens a link. */
export const PORTAL_PATH = '/portal/';
export const PORTAL_OPEN_PATH = '/portal/session';

/** An opened link with the cookie value that carries its session, or why it did not open. */
export type PortalOpening =
  | { outcome: 'opened'; readOnly: boolean; expiresAt: Date; sessionSecret: string }
  | Exclude<LinkOpening, { outcome: 'opened' }>;

export interface PortalLink {
  url: string;
  expiresAt: Date;
}

/** The notification API's address as the subscriber's browser reaches it. */
export function portalBaseUrl(config: AppConfig): string {
  return (config.PORTAL_PUBLIC_URL ?? `http://127.0.0.1:${config.NOTIFICATION_API_PORT}`).replace(/\/+$/, '');
}

/**
 * Issues one-time portal links and opens them into sessions; the API and the CLI share it. The
 * code travels in the link only: the table holds its digest.
 */
export class PortalLinks {
  constructor(
    private readonly sessions: PortalSessionRepository,
    private readonly baseUrl: string,
  ) {}

  async create(tenantId: string, readOnly: boolean, now = new Date()): Promise<PortalLink> {
    const code = generatePortalSecret();
    const expiresAt = new Date(now.getTime() + PORTAL_LINK_SECONDS * 1000);
    await this.sessions.createLink({ tenantId, codeDigest: portalSecretDigest(code), readOnly, expiresAt });
    return { url: `${this.baseUrl}${PORTAL_OPEN_PATH}?code=${code}`, expiresAt };
  }

  /** The session a link opens, with the cookie value that carries it; a code of the wrong shape is unknown. */
  async open(code: unknown): Promise<PortalOpening> {
    if (typeof code !== 'string' || !looksLikePortalSecret(code)) return { outcome: 'unknown' };
    const sessionSecret = generatePortalSecret();
    const opening = await this.sessions.openLink(
      portalSecretDigest(code),
      portalSecretDigest(sessionSecret),
      PORTAL_SESSION_SECONDS,
    );
    return opening.outcome === 'opened' ? { ...opening, sessionSecret } : opening;
  }
}
