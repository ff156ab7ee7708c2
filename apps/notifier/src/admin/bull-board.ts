import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { dirname } from 'node:path';
import type { createBullBoard } from '@bull-board/api';
import { Logger } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type HTTPMethods,
} from 'fastify';
import { QueueName } from '@fincore/events';
import type { AppConfig } from '@fincore/platform';

export const BULL_BOARD_PATH = '/admin/queues';

/** Production needs a configured password; elsewhere a random one is made up and logged once. */
export function bullBoardCredentials(config: AppConfig): { username: string; password: string } {
  if (config.BULL_BOARD_PASSWORD)
    return { username: config.BULL_BOARD_USERNAME, password: config.BULL_BOARD_PASSWORD };
  if (config.NODE_ENV === 'production')
    throw new Error('BULL_BOARD_PASSWORD is required in production: Bull Board can retry and delete jobs');
  const password = randomBytes(12).toString('base64url');
  new Logger('BullBoard').warn(
    `BULL_BOARD_PASSWORD is not set; this process uses ${config.BULL_BOARD_USERNAME} / ${password}`,
  );
  return { username: config.BULL_BOARD_USERNAME, password };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Basic auth with a constant-time comparison (of digests, so lengths leak nothing either). */
export function basicAuthMatches(
  header: string | undefined,
  expected: { username: string; password: string },
): boolean {
  if (!header?.startsWith('Basic ')) return false;
  const given = Buffer.from(header.slice(6), 'base64').toString('utf8');
  return timingSafeEqual(digest(given), digest(`${expected.username}:${expected.password}`));
}

/** The board's page links its fonts from a web font service; operators may have no internet. */
const REMOTE_FONTS_LINK = /<link[^>]+href="https:\/\/fonts\.googleapis\.com\/[^"]*"[^>]*>/;
const LOCAL_FONT_FAMILIES = ['ibm-plex-sans', 'ibm-plex-mono'] as const;
const LOCAL_FONT_STYLESHEETS = [
  'ibm-plex-sans/400',
  'ibm-plex-sans/500',
  'ibm-plex-sans/600',
  'ibm-plex-mono/400',
  'ibm-plex-mono/500',
]
  .map((sheet) => `<link href="fonts/${sheet}.css" rel="stylesheet">`)
  .join('');

/** The same typefaces, served by the notifier from their npm packages. */
async function serveLocalFonts(scope: FastifyInstance): Promise<void> {
  const { default: fastifyStatic } = await import('@fastify/static');
  for (const family of LOCAL_FONT_FAMILIES) {
    await scope.register(fastifyStatic, {
      root: dirname(require.resolve(`@fontsource/${family}/package.json`)),
      prefix: `/fonts/${family}/`,
      decorateReply: false,
      allowedPath: (path) => /^\/(\d{3}\.css|files\/[\w-]+\.woff2?)$/.test(path),
    });
  }
  scope.addHook('onSend', async (_request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    return type.startsWith('text/html') && typeof payload === 'string'
      ? payload.replace(REMOTE_FONTS_LINK, LOCAL_FONT_STYLESHEETS)
      : payload;
  });
}

/** Marks the board's own "no such page", so the notifier answers it as any other unknown path. */
const NOT_FOUND_HEADER = 'x-fincore-board-not-found';
/** Hop-by-hop and length headers: each side of the hand-over sets its own. */
const UNFORWARDED_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
]);

function withoutUnforwarded<T>(headers: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name, value]) => value !== undefined && !UNFORWARDED_HEADERS.has(name)),
  );
}

/**
 * The board itself, on a Fastify instance of its own that never listens: the notifier hands it
 * the requests for /admin/queues. Built on the first of them, so a notifier nobody looks at
 * neither loads the board's UI, templates and API nor holds them.
 */
async function buildBoard(queues: Queue[]): Promise<FastifyInstance> {
  const [{ createBullBoard: create }, { BullMQAdapter }, { FastifyAdapter }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/fastify'),
  ]);
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  create({
    queues: queues.map((queue) => new BullMQAdapter(queue)),
    // @bull-board/fastify pins its own patch release of @bull-board/api; the adapter interface is the same.
    serverAdapter: serverAdapter as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'],
    options: { uiConfig: { boardTitle: 'fincore queues' } },
  });
  const board = Fastify();
  board.setNotFoundHandler((_request, reply) => reply.code(404).header(NOT_FOUND_HEADER, '1').send());
  await board.register(
    async (scope) => {
      await serveLocalFonts(scope);
      await scope.register(serverAdapter.registerPlugin() as never);
    },
    { prefix: BULL_BOARD_PATH },
  );
  await board.ready();
  return board;
}

/**
 * Bull Board on the notifier, showing both queues. Mounted on Fastify directly, outside Nest's
 * x-auth-token guard: operators use basic auth, not a tenant's API token.
 */
export async function mountBullBoard(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  const credentials = bullBoardCredentials(config);
  const queues = [QueueName.DomainEvents, QueueName.WebhookDeliveries].map((name) =>
    app.get<Queue>(getQueueToken(name)),
  );
  let board: Promise<FastifyInstance> | undefined;
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    board ??= buildBoard(queues).catch((error: unknown) => {
      board = undefined;
      throw error;
    });
    const answer = await (
      await board
    ).inject({
      method: request.method as HTTPMethods,
      url: request.url,
      headers: withoutUnforwarded(request.headers),
      // The notifier has parsed the body already (JSON is all it takes): the board gets it again as JSON.
      payload: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    if (answer.headers[NOT_FOUND_HEADER]) return reply.callNotFound();
    return reply.code(answer.statusCode).headers(withoutUnforwarded(answer.headers)).send(answer.rawPayload);
  };
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onClose', async () => {
    await (await board?.catch(() => undefined))?.close();
  });
  await fastify.register(
    async (scope) => {
      scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        if (basicAuthMatches(request.headers.authorization, credentials)) return;
        await reply
          .code(401)
          .header('www-authenticate', 'Basic realm="fincore bull board", charset="UTF-8"')
          .type('application/problem+json')
          .send({
            type: 'urn:fincore:problem:unauthenticated',
            title: 'Authentication required',
            status: 401,
            code: 'unauthenticated',
          });
      });
      scope.all('/', forward);
      scope.all('/*', forward);
    },
    { prefix: BULL_BOARD_PATH },
  );
}
