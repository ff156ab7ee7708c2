import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { requestContext } from '../context/request-context';
import { Principal } from '../context/principal';
import { insufficientScope, tenantHeaderRequired, tenantMismatch, unauthenticated } from './auth.problems';
import { RouteRules, routeRules } from './route-rules';
import { TokenService } from './token.service';

type HeaderBag = Record<string, string | string[] | undefined>;
type Request = { headers: HeaderBag; principal?: Principal };

/** x-auth-token on every non-public route, then tenant header, then scopes: 401 before 403. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(TokenService) private readonly tokens: TokenService,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const rules = routeRules(this.reflector, context);
    if (rules.isPublic) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const token = request.headers['x-auth-token'];
    if (typeof token !== 'string') return this.admit(request, undefined, rules);
    // A token the cache holds is answered without a promise: most requests.
    const cached = this.tokens.cachedPrincipal(token);
    if (cached) return this.admit(request, cached, rules);
    return this.tokens.authenticate(token).then((principal) => this.admit(request, principal, rules));
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
