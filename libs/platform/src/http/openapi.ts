import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AUTH_SECURITY_NAME } from '../auth/decorators';
import { SCOPES } from '../auth/scopes';
import { documentIdempotencyKey } from '../idempotency/idempotency.openapi';
import { documentCommonAnswers } from './openapi-answers';
import { applyApiDocs } from '../api-docs/api-docs';

type Swagger = typeof import('@nestjs/swagger');

const PROBLEM_SCHEMA = {
  type: 'object',
  description:
    'RFC 9457 problem details; title, detail and errors[].message follow Accept-Language (en, de).',
  required: ['type', 'title', 'status', 'code'],
  properties: {
    type: { type: 'string', example: 'urn:fincore:problem:validation_failed' },
    title: { type: 'string', example: 'The request is not valid' },
    status: { type: 'integer', example: 400 },
    detail: { type: 'string' },
    code: { type: 'string', description: 'Stable machine-readable code', example: 'validation_failed' },
    instance: { type: 'string', example: '/api/v1/credentials/invalidate' },
    requestId: { type: 'string', description: 'Same as the x-request-id response header' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: {
          field: { type: 'string', example: 'personId' },
          message: { type: 'string', example: 'Required' },
        },
      },
    },
  },
};

/**
 * OpenAPI 3 document at /docs-json, Swagger UI at /docs. `port` is the app's configured port.
 * The document is built on the first request for it: a process that nobody asks for its document
 * (a worker, a replica behind a gateway) does not hold it, nor the scan that builds it.
 */
export async function setupOpenApi(
  app: NestFastifyApplication,
  info: { title: string; description: string; version: string; port: number },
): Promise<void> {
  const swagger = await import('@nestjs/swagger');
  swagger.SwaggerModule.setup('docs', app, () => buildOpenApiDocument(swagger, app, info), {
    jsonDocumentUrl: 'docs-json',
    raw: ['json'],
  });
  redirectToCanonicalDocs(app);
}

/** The app's document: its routes as Nest scans them, and the answers every operation shares. */
function buildOpenApiDocument(
  swagger: Swagger,
  app: NestFastifyApplication,
  info: { title: string; description: string; version: string; port: number },
): OpenAPIObject {
  const scopes = Object.entries(SCOPES)
    .map(([scope, what]) => `- \`${scope}\`: ${what}`)
    .join('\n');
  applyApiDocs(swagger);
  const config = new swagger.DocumentBuilder()
    .setTitle(info.title)
    .setDescription(
      `${info.description}\n\nEvery /api/v1 call needs an API token in \`x-auth-token\` (from \`npm run -s cli -- token:create --tenant <code> --scopes <a,b>\`). ` +
        `Errors are \`application/problem+json\`. Each operation lists the scopes its token needs in \`x-required-scopes\`. Scopes:\n${scopes}`,
    )
    .setVersion(info.version)
    .setLicense('Apache-2.0', 'https://www.apache.org/licenses/LICENSE-2.0')
    // Relative first: the Swagger UI and a client reading /docs-json call the host that served it.
    .addServer('/', 'The host serving this document')
    .addServer('http://{host}:{port}', 'The app on the configured host and port', {
      host: { default: '127.0.0.1', description: 'Host the app listens on' },
      port: { default: String(info.port), description: 'Port the app listens on' },
    })
    .addSecurity(AUTH_SECURITY_NAME, { type: 'apiKey', in: 'header', name: 'x-auth-token' })
    .build();
  const document = swagger.SwaggerModule.createDocument(app, config);
  document.components = document.components ?? {};
  document.components.schemas = { ...(document.components.schemas ?? {}), Problem: PROBLEM_SCHEMA as never };
  documentCommonAnswers(document);
  documentIdempotencyKey(document);
  return document;
}

/**
 * The UI's page loads its assets by relative URLs, which only some spellings of its address
 * resolve (`/docs/index.html` reaches for `/docs/docs/…`): those spellings are sent to `/docs`.
 */
function redirectToCanonicalDocs(app: NestFastifyApplication): void {
  const aliases = new Set(['/docs/', '/docs/index.html']);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      // Every request passes here: the cheap tests first, the split for the few that may match.
      if ((request.method !== 'GET' && request.method !== 'HEAD') || !request.url.startsWith('/docs/')) {
        done();
        return;
      }
      const [path, query] = request.url.split(/\?(.*)/s, 2);
      if (aliases.has(path)) {
        void reply.redirect(query ? `/docs?${query}` : '/docs', 301);
        return;
      }
      done();
    });
}
