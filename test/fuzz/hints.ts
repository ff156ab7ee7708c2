import fc from 'fast-check';
import type { Hints } from './openapi-arbitraries';

/** Header values every app reads: the caller's tenant code (or none) and a language. */
export function commonHints(tenantCode: string): Hints {
  return {
    'x-tenant-code': fc.constant(tenantCode),
    'accept-language': fc.constantFrom('en', 'de', 'de-DE,de;q=0.9,en;q=0.5', 'fr'),
  };
}
