import { NestInterceptor, RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { WITHOUT_IDEMPOTENCY_KEY } from './without-idempotency-key.decorator';

const APP_INTERCEPTOR = Symbol('fincore.idempotency.interceptor');

type Handler = (...args: unknown[]) => unknown;

/**
 * What handlers are bound to: the same object for every app of the process (the metadata lives on
 * the controller classes, which apps in one process share), handing over to the interceptor of
 * the app the request reached.
 */
export const PER_APP_IDEMPOTENCY: NestInterceptor = {
  intercept(context, next) {
    const server = context.switchToHttp().getRequest<{ server: Record<symbol, NestInterceptor> }>().server;
    return server[APP_INTERCEPTOR].intercept(context, next);
  },
};

/** A POST (or any-method) route not marked @WithoutIdempotencyKey on its handler or controller. */
export function takesIdempotencyKey(controller: object, handler: Handler): boolean {
  if (!Reflect.hasMetadata(PATH_METADATA, handler)) return false;
  const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
  if (method !== RequestMethod.POST && method !== RequestMethod.ALL) return false;
  return (
    !Reflect.getMetadata(WITHOUT_IDEMPOTENCY_KEY, handler) &&
    !Reflect.getMetadata(WITHOUT_IDEMPOTENCY_KEY, controller)
  );
}

/**
 * Binds the IdempotencyInterceptor to the routes that can take an Idempotency-Key, and to no
 * other: any interceptor on a route, even one with nothing to do, costs Nest's Observable
 * pipeline on each of its requests. Call before app.init(), which builds the routes.
 */
export function bindIdempotencyInterceptor(app: NestFastifyApplication): void {
  app.getHttpAdapter().getInstance().decorate(APP_INTERCEPTOR, app.get(IdempotencyInterceptor));
  const scanner = new MetadataScanner();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function') continue;
      const prototype = metatype.prototype as Record<string, Handler>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        if (!takesIdempotencyKey(metatype, handler)) continue;
        const bound = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? []) as unknown[];
        if (bound.includes(PER_APP_IDEMPOTENCY)) continue;
        Reflect.defineMetadata(INTERCEPTORS_METADATA, [PER_APP_IDEMPOTENCY, ...bound], handler);
      }
    }
  }
}
