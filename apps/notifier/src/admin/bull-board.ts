import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { Logger } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import type { FastifyReply, FastifyRequest } from 'fastify';
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

/**
 * Bull Board on the notifier, showing both queues. Mounted on Fastify directly, outside Nest's
 * x-auth-token guard: operators use basic auth, not a tenant's API token.
 */
export async function mountBullBoard(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  const credentials = bullBoardCredentials(config);
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: [QueueName.DomainEvents, QueueName.WebhookDeliveries].map(
      (name) => new BullMQAdapter(app.get<Queue>(getQueueToken(name))),
    ),
    // @bull-board/fastify pins its own patch release of @bull-board/api; the adapter interface is the same.
    serverAdapter: serverAdapter as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'],
    options: { uiConfig: { boardTitle: 'fincore queues' } },
  });
  const fastify = app.getHttpAdapter().getInstance();
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
      await scope.register(serverAdapter.registerPlugin() as never);
    },
    { prefix: BULL_BOARD_PATH },
  );
}
