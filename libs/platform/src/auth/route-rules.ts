import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { IS_PUBLIC, REQUIRED_SCOPES, SKIP_RATE_LIMIT, TENANT_HEADER_REQUIRED } from './decorators';

/** What the auth and rate-limit decorators say about one route, the handler's word over its controller's. */
export interface RouteRules {
  isPublic: boolean;
  requiredScopes: readonly string[];
  tenantHeaderRequired: boolean;
  skipRateLimit: boolean;
}

const byController = new WeakMap<object, WeakMap<object, RouteRules>>();

/**
 * The rules of the route being served, read from the decorators once per handler: they do not
 * change after start, and the guards ask on every request.
 */
export function routeRules(reflector: Reflector, context: ExecutionContext): RouteRules {
  const handler = context.getHandler();
  const controller = context.getClass();
  let byHandler = byController.get(controller);
  if (!byHandler) byController.set(controller, (byHandler = new WeakMap()));
  let rules = byHandler.get(handler);
  if (!rules) {
    const targets = [handler, controller];
    rules = Object.freeze({
      isPublic: reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) ?? false,
      requiredScopes: Object.freeze([
        ...(reflector.getAllAndOverride<string[]>(REQUIRED_SCOPES, targets) ?? []),
      ]),
      tenantHeaderRequired: reflector.getAllAndOverride<boolean>(TENANT_HEADER_REQUIRED, targets) ?? false,
      skipRateLimit: reflector.getAllAndOverride<boolean>(SKIP_RATE_LIMIT, targets) ?? false,
    });
    byHandler.set(handler, rules);
  }
  return rules;
}
