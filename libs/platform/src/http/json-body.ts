import type { FastifyInstance, RawServerDefault } from 'fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { jsonTooDeep } from './http.problems';

/** Deeper than any body fincore documents by far; deeper bodies are refused before parsing. */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * Whether a JSON text nests arrays and objects deeper than `limit`, found by one scan of its bytes
 * that skips string contents (UTF-8 continuation bytes never look like brackets or quotes).
 * Cheaper than parsing, and it keeps recursive code (validation, fingerprints, logging) from ever
 * meeting a body built to exhaust the stack.
 */
export function jsonNestsDeeperThan(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** Fastify's own JSON parser (prototype poisoning refused), behind the depth check. */
export function useBoundedJsonParser(app: NestFastifyApplication, bodyLimit: number): void {
  const fastify: FastifyInstance = app.getHttpAdapter().getInstance();
  const parse = fastify.getDefaultJsonParser('error', 'error');
  app.useBodyParser<RawServerDefault>('application/json', { bodyLimit }, (request, body, done) => {
    if (jsonNestsDeeperThan(body, MAX_JSON_DEPTH)) {
      done(jsonTooDeep(MAX_JSON_DEPTH), undefined);
      return;
    }
    parse(request, body.toString('utf8'), done);
  });
}
