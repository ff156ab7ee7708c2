import type { OpenAPIObject } from '@nestjs/swagger';
import { PROBLEM_CONTENT } from '../auth/decorators';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_TTL_SECONDS } from './idempotency-key';
import { WITHOUT_IDEMPOTENCY_KEY_EXTENSION } from './without-idempotency-key.decorator';

type Operation = {
  parameters?: unknown[];
  responses?: Record<string, { description?: string; [more: string]: unknown }>;
  [extension: string]: unknown;
};

const HOURS = IDEMPOTENCY_KEY_TTL_SECONDS / 3600;

const HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    `Makes a retry safe (IETF draft "The Idempotency-Key HTTP Header Field"): for ${HOURS} h the same key with the same ` +
    'request (method, path, JSON body) answers what the first one answered, with `Idempotent-Replayed: true`, and ' +
    'changes nothing again. Keys are per tenant; send a random value (a UUID), plain or as a Structured Field ' +
    'string ("…"): it also seals the answer kept for the replay. Server errors ' +
    '(5xx) are not kept: a retry runs the request again.',
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
    pattern: '^[\\x20-\\x7E]+$',
  },
  example: '8e03978e-40d5-43e8-bc93-6894a57f9324',
};

const ANSWERS: Record<string, { description: string; headers?: Record<string, unknown> }> = {
  '400': {
    description: 'idempotency_key_invalid: the Idempotency-Key is empty, too long or not printable ASCII',
  },
  '409': {
    description:
      'idempotency_key_in_flight: a request with this Idempotency-Key is still running; retry after Retry-After',
    headers: {
      'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
    },
  },
  '422': { description: 'idempotency_key_reused: this Idempotency-Key was used for another request' },
};

/** Adds the Idempotency-Key header and its 400/409/422 answers to every POST that takes one. */
export function documentIdempotencyKey(document: OpenAPIObject): void {
  for (const path of Object.values(document.paths ?? {})) {
    const operation = (path as { post?: Operation }).post;
    if (!operation) continue;
    if (operation[WITHOUT_IDEMPOTENCY_KEY_EXTENSION]) {
      delete operation[WITHOUT_IDEMPOTENCY_KEY_EXTENSION];
      continue;
    }
    operation.parameters = [...(operation.parameters ?? []), HEADER];
    const responses = (operation.responses ??= {});
    for (const [status, answer] of Object.entries(ANSWERS)) {
      const existing = responses[status];
      responses[status] = existing
        ? {
            ...existing,
            description: `${existing.description ?? ''}; ${answer.description}`,
            ...(answer.headers
              ? { headers: { ...((existing.headers as object) ?? {}), ...answer.headers } }
              : {}),
          }
        : { ...answer, content: PROBLEM_CONTENT };
    }
  }
}
