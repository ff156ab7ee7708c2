import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { Logger } from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/config';
import { sendProblem } from './problem.filter';
import { headersTooLarge, malformedRequest, requestTimeout } from './common.problems';
import type { ProblemException } from './problem';
import { PROBLEM_CONTENT_TYPE, renderProblem } from './render';

// Errors the HTTP layer meets before a request reaches Nest: they get the same problem+json
// answer as everything else.

/**
 * Fastify's `frameworkErrors`: a malformed path (bad percent-encoding) or an over-long path
 * parameter, found by the router before any hook or route runs.
 */
export function frameworkErrorHandler(config: AppConfig) {
  const logger = new Logger('Problem');
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    // The onRequest hook that writes it back never runs for these.
    void reply.header('x-request-id', request.id);
    sendProblem(error, request, reply, config, logger);
  };
}

/** How long a connection whose request could not be parsed stays open after the answer, if idle. */
const CLOSE_AFTER_MS = 5_000;

/** The problem for an error of Node's HTTP parser, or undefined when no answer can reach the caller. */
export function clientErrorProblem(error: Error & { code?: string }): ProblemException | undefined {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    case 'HPE_HEADER_OVERFLOW':
      return headersTooLarge(maxHeaderSize);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return requestTimeout();
    default:
      return malformedRequest();
  }
}

/**
 * Node's `clientError`: the request could not even be parsed (headers over the limit, a broken
 * request line), so there is no request object and no language; the answer is written on the
 * socket, which is closed after it.
 */
export function clientErrorHandler(config: AppConfig) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    const problem = clientErrorProblem(error);
    // A parse error in a body can come after the answer to it has begun: a second status line
    // would corrupt it, so such a connection is only closed (as Node itself does).
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (!problem || answering || socket.destroyed || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const rendered = renderProblem(problem, { headers: {} }, requestId, config.HTTP_BODY_LIMIT);
    const body = JSON.stringify(rendered.body);
    const head = [
      `HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status] ?? 'Error'}`,
      `content-type: ${PROBLEM_CONTENT_TYPE}`,
      `content-length: ${Buffer.byteLength(body)}`,
      `content-language: ${rendered.language}`,
      `x-request-id: ${requestId}`,
      'connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    // The caller may keep its side open (or keep sending what the parser refused): not for long.
    socket.setTimeout(CLOSE_AFTER_MS, () => socket.destroy());
  };
}
