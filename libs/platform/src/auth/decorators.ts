import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiDocs } from '../api-docs/api-docs';
import { Principal } from '../context/principal';
import { missingPrincipal } from './auth.problems';
import { Scope } from './scopes';

export const IS_PUBLIC = 'fincore:public';
export const REQUIRED_SCOPES = 'fincore:scopes';
export const TENANT_HEADER_REQUIRED = 'fincore:tenant-header-required';
export const SKIP_RATE_LIMIT = 'fincore:skip-rate-limit';
export const AUTH_SECURITY_NAME = 'x-auth-token';
/**
 * The scopes an operation's token needs, in the OpenAPI document: OpenAPI 3.0 allows scopes in
 * `security` only for OAuth2 and OpenID Connect, and the API key is neither.
 */
export const REQUIRED_SCOPES_EXTENSION = 'x-required-scopes';

/** The route needs no token (health, metrics, docs). */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), SetMetadata(SKIP_RATE_LIMIT, true));

/** OpenAPI content of every error answer: problem+json with the Problem schema. */
export const PROBLEM_CONTENT = {
  'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
};

export const RATE_LIMITED = 'rate_limited: too many requests; see Retry-After';

/**
 * The route needs a token carrying every one of `scopes`; documents the security scheme, the
 * scopes (from the same list the auth guard reads) and the 401/403/429 answers.
 */
export const ApiAuth = (...scopes: Scope[]) =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPES, scopes),
    ApiDocs((s) => [
      s.ApiExtension(REQUIRED_SCOPES_EXTENSION, scopes),
      s.ApiSecurity(AUTH_SECURITY_NAME),
      s.ApiHeader({
        name: 'x-tenant-code',
        required: false,
        description: "Tenant code; where sent it must equal the token's tenant (403 otherwise).",
      }),
      s.ApiHeader({
        name: 'Accept-Language',
        required: false,
        description: 'Language of error titles and details (en, de).',
      }),
      s.ApiUnauthorizedResponse({
        description: 'unauthenticated: no, unknown or revoked token',
        content: PROBLEM_CONTENT,
      }),
      s.ApiForbiddenResponse({
        description: `insufficient_scope: the token lacks ${scopes.join(', ') || '(none needed)'}; tenant_mismatch: x-tenant-code is another tenant's`,
        content: PROBLEM_CONTENT,
      }),
      s.ApiTooManyRequestsResponse({ description: RATE_LIMITED, content: PROBLEM_CONTENT }),
    ]),
  );

/** x-tenant-code must be sent (the spec shows it on the card settings change). */
export const RequireTenantHeader = () =>
  applyDecorators(
    SetMetadata(TENANT_HEADER_REQUIRED, true),
    ApiDocs((s) => [
      s.ApiHeader({
        name: 'x-tenant-code',
        required: true,
        description: "Tenant code; must equal the token's tenant.",
      }),
    ]),
  );

/** The authenticated caller; only on routes behind the auth guard. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<{ principal?: Principal }>().principal;
  if (!principal) throw missingPrincipal();
  return principal;
});
