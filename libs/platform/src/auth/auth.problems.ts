import { defineProblems } from '../errors/problem-catalog';

const problems = defineProblems({
  unauthenticated: {
    status: 401,
    title: { en: 'Authentication required', de: 'Authentifizierung erforderlich' },
    detail: {
      en: 'Send a valid, unrevoked API token in the x-auth-token header.',
      de: 'Senden Sie ein gültiges, nicht widerrufenes API-Token im Header x-auth-token.',
    },
  },
  insufficient_scope: {
    status: 403,
    title: { en: 'Insufficient scope', de: 'Unzureichende Berechtigung' },
    detail: {
      en: 'This operation needs the scope(s) {required}.',
      de: 'Dieser Vorgang erfordert die Berechtigung(en) {required}.',
    },
  },
  tenant_mismatch: {
    status: 403,
    title: { en: 'Tenant mismatch', de: 'Mandant stimmt nicht überein' },
    detail: {
      en: 'The x-tenant-code header does not match the tenant of the API token.',
      de: 'Der Header x-tenant-code passt nicht zum Mandanten des API-Tokens.',
    },
  },
  tenant_header_required: {
    status: 400,
    title: { en: 'Tenant header required', de: 'Mandanten-Header erforderlich' },
    detail: {
      en: 'This operation requires the x-tenant-code header.',
      de: 'Dieser Vorgang erfordert den Header x-tenant-code.',
    },
  },
  portal_header_required: {
    status: 403,
    title: { en: 'Portal header required', de: 'Portal-Header erforderlich' },
    detail: {
      en: 'A change made with a portal session must send the x-fincore-portal header.',
      de: 'Eine Änderung mit einer Portal-Sitzung muss den Header x-fincore-portal senden.',
    },
  },
});

/** No, an unknown or a revoked token. */
export const unauthenticated = () =>
  problems.unauthenticated({}, { headers: { 'www-authenticate': 'x-auth-token' } });
/** A route the guard did not admit asked for the caller. */
export const missingPrincipal = () => problems.unauthenticated();
export const insufficientScope = (required: readonly string[]) => problems.insufficient_scope({ required });
export const tenantMismatch = () => problems.tenant_mismatch();
export const tenantHeaderRequired = () =>
  problems.tenant_header_required({}, { errors: [{ field: 'header:x-tenant-code', message: 'required' }] });
/** A state change carried by the portal's cookie alone: another site's form could have sent it. */
export const portalHeaderRequired = () => problems.portal_header_required();
