import type { FastifyInstance } from 'fastify';
import { requestContext } from '../context/request-context';

/**
 * Sends the request id back and opens the request's async context, so everything the request
 * awaits (body parsing, guards, handler) can read the id. A Fastify hook rather than Nest
 * middleware: middleware costs a middie pass per request.
 */
export function openRequestContexts(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    requestContext.run({ requestId: request.id }, done);
  });
}
