import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** Vite names every asset after its content: a changed file is a new URL, so an old one never goes stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** dist/apps/portal of the repository (or image) this process runs from, wherever its own file was compiled to. */
function portalBuildDir(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'apps', 'portal');
}

/**
 * The portal's browser-facing routes, on Fastify directly beside the API: the built single-page
 * app under /portal/, and opening a link (which sets the session cookie), which is not an API
 * operation and takes no token.
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

  const root = portalBuildDir();
  if (!existsSync(join(root, 'index.html'))) {
    fastify.get(`${PORTAL_PATH}*`, async (_request, reply) =>
      reply.code(503).type('text/plain').send('The portal is not built: run npm run build.'),
    );
    return;
  }
  const { default: fastifyStatic } = await import('@fastify/static');
  await fastify.register(fastifyStatic, {
    root,
    prefix: PORTAL_PATH,
    decorateReply: false,
    redirect: true,
    cacheControl: false,
    setHeaders: (response, path) => {
      for (const [name, value] of Object.entries(security)) response.header(name, value);
      // The page itself is asked again each time, so a new build's assets are found at once.
      response.header('cache-control', path.startsWith(join(root, 'assets')) ? IMMUTABLE : 'no-cache');
    },
  });
}
