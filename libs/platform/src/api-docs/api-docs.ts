import type * as Swagger from '@nestjs/swagger';

/** A decorator of @nestjs/swagger: for a class, a method or a property. */
type SwaggerDecorator = ClassDecorator | MethodDecorator | PropertyDecorator;
type Decorate = (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => unknown;

const pending: Array<(swagger: typeof Swagger) => void> = [];

/**
 * OpenAPI decorators for the platform's own routes and decorators, applied when the process first
 * builds an OpenAPI document. @nestjs/swagger (about 13 MiB resident) then loads only in a process
 * that serves /docs, not in the notifier. An app's own controllers import @nestjs/swagger directly.
 */
export function ApiDocs(documentation: (swagger: typeof Swagger) => SwaggerDecorator[]) {
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor): void => {
    pending.push((swagger) => {
      for (const decorate of documentation(swagger)) (decorate as Decorate)(target, key, descriptor);
    });
  };
}

/** Applies every recorded documentation once; their metadata stays on the classes and methods. */
export function applyApiDocs(swagger: typeof Swagger): void {
  for (const apply of pending.splice(0)) apply(swagger);
}
