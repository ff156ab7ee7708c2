import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AppConfig,
  PORTAL_OPEN_PATH,
  PORTAL_PATH,
  PORTAL_SESSION_SECONDS,
  sessionCookie,
} from '@fincore/platform';
import { portalSecurityHeaders, refusalPage, refusalStatus } from './portal-pages';
import { PortalSessionsService } from './portal-sessions.service';

/**
 * The portal's browser-facing routes, on Fastify directly beside the API: opening a link (which
 * sets the session cookie) is not an API operation, and takes no token.
 */
export async function mountPortal(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  const service = app.get(PortalSessionsService);
  const security = portalSecurityHeaders(config.PORTAL_FRAME_ANCESTORS);
  const fastify = app.getHttpAdapter().getInstance();

  fastify.get(PORTAL_OPEN_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
    const code = (request.query as Record<string, unknown> | undefined)?.code;
    const opening = await service.open(code);
    reply.headers(security).header('cache-control', 'no-store');
    if (opening.outcome !== 'opened') {
      return reply
        .code(refusalStatus(opening.outcome))
        .type('text/html; charset=utf-8')
        .send(refusalPage(opening.outcome, request.headers['accept-language']));
    }
    return reply
      .header(
        'set-cookie',
        sessionCookie(opening.sessionSecret, PORTAL_SESSION_SECONDS, request.protocol === 'https'),
      )
      .redirect(PORTAL_PATH, 303);
  });
}
