import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { APP_VERSION } from '@fincore/platform';
import { asyncApiDocument } from './asyncapi-document';

export const ASYNCAPI_PATH = '/docs/asyncapi.json';

/**
 * The AsyncAPI document of the webhooks beside the OpenAPI one, public like it. Built on the first
 * request for it from the event catalog, so a type added to the catalog is in it with no more code.
 */
export function serveAsyncApi(app: NestFastifyApplication): void {
  let body: string | undefined;
  app
    .getHttpAdapter()
    .getInstance()
    .get(ASYNCAPI_PATH, (_request, reply) => {
      body ??= JSON.stringify(asyncApiDocument(APP_VERSION));
      void reply.type('application/json; charset=utf-8').send(body);
    });
}
