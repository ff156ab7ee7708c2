import { ArgumentsHost, Catch, ExceptionFilter, Inject, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '../config/config';
import { PROBLEM_CONTENT_TYPE, renderProblem } from './render';

/** The one place errors become responses: application/problem+json (RFC 9457), localised. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('Problem');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendProblem(
      exception,
      http.getRequest<FastifyRequest>(),
      http.getResponse<FastifyReply>(),
      this.config,
      this.logger,
    );
  }
}

export function sendProblem(
  exception: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  config: AppConfig,
  logger: Logger,
): void {
  const problem = renderProblem(exception, request, String(request.id), config.HTTP_BODY_LIMIT);
  if (problem.unexpected) {
    logger.error(
      { err: loggableError(exception), requestId: request.id },
      `Unexpected error on ${request.method} ${request.url}`,
    );
  }
  if (reply.sent) return;
  void reply.status(problem.status).headers(problem.headers).type(PROBLEM_CONTENT_TYPE).send(problem.body);
}

/**
 * What of an unexpected error goes to the log: name, message, stack, code and statement, never
 * the statement's parameters or the driver's detail (they can hold secrets such as password hashes).
 */
export function loggableError(exception: unknown): Record<string, unknown> {
  if (!(exception instanceof Error)) return { message: String(exception) };
  const { code, query } = exception as { code?: unknown; query?: unknown };
  return {
    type: exception.name,
    message: exception.message,
    stack: exception.stack,
    ...(code !== undefined ? { code } : {}),
    ...(typeof query === 'string' ? { query: query.slice(0, 500) } : {}),
  };
}
