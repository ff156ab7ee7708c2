import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { requestContext } from '../context/request-context';
import { Principal } from '../context/principal';
import { PORTAL_CSRF_HEADER } from '../portal/portal-cookie';
import { PortalSessions } from '../portal/portal-sessions';
import {
  insufficientScope,
  portalHeaderRequired,
  tenantHeaderRequired,
  tenantMismatch,
  unauthenticated,
} from './auth.problems';
import { RouteRules, routeRules } from './route-rules';
import { TokenService } from './token.service';

type HeaderBag = Record<string, string | string[] | undefined>;
type Request = { headers: HeaderBag; method: string; principal?: Principal };

/** Whether this app takes the portal's session cookie where no x-auth-token is sent. */
export const ACCEPTS_PORTAL_SESSIONS = Symbol('ACCEPTS_PORTAL_SESSIONS');

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * x-auth-token on every non-public route (or, in an app that accepts them, a portal session
 * cookie), then tenant header, then scopes: 401 before 403.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(TokenService) private readonly tokens: TokenService,
    @Inject(PortalSessions) private readonly portal: PortalSessions,
    @Inject(ACCEPTS_PORTAL_SESSIONS) private readonly acceptsPortalSessions: boolean,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const rules = routeRules(this.reflector, context);
    if (rules.isPublic) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const token = request.headers['x-auth-token'];
    if (typeof token !== 'string') {
      if (this.acceptsPortalSessions && this.portal.carriesSession(request.headers.cookie))
        return this.portal
          .authenticate(request.headers.cookie)
          .then((principal) => this.admitSession(request, principal, rules));
      return this.admit(request, undefined, rules);
    }
    // A token the cache holds is answered without a promise: most requests.
    const cached = this.tokens.cachedPrincipal(token);
    if (cached) return this.admit(request, cached, rules);
    return this.tokens.authenticate(token).then((principal) => this.admit(request, principal, rules));
  }

  /**
   * A browser sends the cookie with any request to this origin, including a form another site
   * posts: a change must also carry the header only the portal's own script sets (SameSite=Strict
   * already keeps other sites' requests cookie-less in current browsers).
   */
  private admitSession(request: Request, principal: Principal | undefined, rules: RouteRules): true {
    if (!principal) throw unauthenticated();
    if (!SAFE_METHODS.has(request.method) && request.headers[PORTAL_CSRF_HEADER] !== '1')
      throw portalHeaderRequired();
    return this.admit(request, principal, rules);
  }

  private admit(request: Request, principal: Principal | undefined, rules: RouteRules): true {
    if (!principal) throw unauthenticated();

    const tenantHeader = request.headers['x-tenant-code'];
    if (tenantHeader === undefined || tenantHeader === '') {
      if (rules.tenantHeaderRequired) throw tenantHeaderRequired();
    } else if (tenantHeader !== principal.tenantCode) {
      throw tenantMismatch();
    }

    const missing = rules.requiredScopes.filter((s) => !principal.scopes.includes(s));
    if (missing.length) throw insufficientScope(missing);

    request.principal = principal;
    const ctx = requestContext.current();
    if (ctx) ctx.principal = principal;
    return true;
  }
}
