import { HttpException } from '@nestjs/common';
import { DEPENDENCY_RETRY_AFTER_SECONDS, dependencyOutage } from './dependency-errors';
import { localise, localiseFieldError, negotiateLanguage, Language } from './messages';
import './field-messages';
import {
  dependencyUnavailable,
  internalError,
  malformedJson,
  malformedUrl,
  payloadTooLarge,
  routeNotFound,
  unsupportedMediaType,
  uriTooLong,
} from './common.problems';
import { FieldError, ProblemException } from './problem';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code: string;
  instance?: string;
  requestId?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

export interface RenderedProblem {
  status: number;
  language: Language;
  body: ProblemBody;
  headers: Record<string, string>;
  /** True when the error is ours, not the caller's: log it with its stack. */
  unexpected: boolean;
}

/**
 * The generic code of a framework's own HTTP error (Fastify's, Nest's), which keeps the status the
 * framework gave it; every other problem takes its status from its code's catalog.
 */
const STATUS_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'insufficient_scope',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

interface RequestLike {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Longest path parameter the router takes: above any identifier, even fully percent-encoded. */
export const MAX_PARAM_LENGTH = 256;

/** Maps Fastify's own errors (body parsing, content type, size), which Nest hands over wrapped. */
function classifyFastify(error: unknown, bodyLimit: number): ProblemException | undefined {
  const fst = error as { code?: string; statusCode?: number; message?: string };
  if (typeof fst?.code !== 'string' || !fst.code.startsWith('FST_')) return undefined;
  switch (fst.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge(bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType();
    case 'FST_ERR_BAD_URL':
      return malformedUrl();
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return uriTooLong(MAX_PARAM_LENGTH);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return malformedJson();
  }
  if (fst.statusCode && fst.statusCode >= 400 && fst.statusCode < 500) {
    return new ProblemException(STATUS_CODES[fst.statusCode] ?? 'bad_request', fst.statusCode, {
      reason: fst.message,
    });
  }
  return undefined;
}

function classify(error: unknown, req: RequestLike, bodyLimit: number): ProblemException | undefined {
  if (error instanceof ProblemException) return error;
  const direct =
    classifyFastify(error, bodyLimit) ?? classifyFastify((error as { cause?: unknown })?.cause, bodyLimit);
  if (direct) return direct;
  if (dependencyOutage(error)) return dependencyUnavailable(DEPENDENCY_RETRY_AFTER_SECONDS);
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const path = (req.url ?? '').split('?')[0];
    if (status === 404 && /^Cannot \w+ /.test(error.message)) {
      return routeNotFound(req.method, path);
    }
    if (status === 413) return payloadTooLarge(bodyLimit);
    if (status === 400 && /JSON/.test(error.message)) return malformedJson();
    const code = STATUS_CODES[status];
    if (code && status < 500) return new ProblemException(code, status, { reason: error.message });
  }
  return undefined;
}

/** Turns any error into the problem+json answer; unknown errors become a generic 500 that leaks nothing. */
export function renderProblem(
  error: unknown,
  req: RequestLike,
  requestId: string | undefined,
  bodyLimit: number,
): RenderedProblem {
  const language = negotiateLanguage(req.headers['accept-language']);
  const problem = classify(error, req, bodyLimit) ?? internalError();
  const { title, detail } = localise(problem.code, language, problem.params);
  const body: ProblemBody = {
    type: `urn:fincore:problem:${problem.code}`,
    title,
    status: problem.status,
    ...(detail ? { detail } : {}),
    code: problem.code,
    instance: (req.url ?? '').split('?')[0] || undefined,
    requestId,
    ...(problem.errors ? { errors: problem.errors.map((e) => localiseFieldError(e, language)) } : {}),
    ...problem.extensions,
  };
  return {
    status: problem.status,
    language,
    body,
    headers: { ...problem.headers, 'content-language': language },
    unexpected: problem.code === 'internal_error',
  };
}
