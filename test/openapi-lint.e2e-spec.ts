import { createConfig, lintFromString } from '@redocly/openapi-core';
import { SCOPES, type AppDefinition } from '@fincore/platform';
import { CardApiApp } from '../apps/card-api/src/app.definition';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { TestStack } from './support/stack';

interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: unknown;
  responses: Record<string, { description?: string; content?: Record<string, unknown> }>;
  'x-required-scopes'?: string[];
  security?: unknown;
}

/** The /api/v1 operations of a document, as "METHOD path". */
function apiOperations(doc: {
  paths: Record<string, Record<string, Operation>>;
}): Array<[string, Operation]> {
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/v1/'))
    .flatMap(([path, item]) =>
      Object.entries(item).map(([m, op]): [string, Operation] => [`${m} ${path}`, op]),
    );
}

/** Operations whose path names what they create where it is missing: they never answer 404. */
const UPSERTS = ['put /api/v1/transaction-types/{code}', 'put /api/v1/transaction-labels/{code}'];

/** The statuses an operation must document, by what it takes (see openapi-answers.ts). */
function expectedStatuses(id: string, op: Operation): string[] {
  const takes = (where: string) => (op.parameters ?? []).some((p) => p.in === where);
  return [
    '400',
    '401',
    '403',
    '429',
    '431',
    '503',
    ...(takes('path') ? ['414'] : []),
    ...(takes('path') && !UPSERTS.includes(id) ? ['404'] : []),
    ...(op.requestBody || !id.startsWith('get ') ? ['413', '415'] : []),
  ];
}

/**
 * Each API's served document passes redocly's recommended rules without an error or a warning, so
 * a client generator can take it as it is; and every /api/v1 operation documents the answers the
 * platform gives on its own and the scopes its token needs.
 */
describe('OpenAPI documents', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.create();
  });
  afterAll(() => stack.close());

  it.each([CredentialsApiApp, CardApiApp, NotificationApiApp].map((d) => [d.name, d]))(
    '%s: /docs-json passes the recommended ruleset and documents every operation whole',
    async (_name: string, definition: AppDefinition) => {
      const sut = await stack.startApp(definition);
      const r = await sut.api.get('/docs-json');
      expect(r.status).toBe(200);

      const config = await createConfig({ extends: ['recommended'] });
      const problems = await lintFromString({
        source: JSON.stringify(r.body, null, 2),
        absoluteRef: `${definition.name}.json`,
        config,
      });
      const findings = problems.map((p) => ({
        rule: p.ruleId,
        severity: p.severity,
        message: p.message,
        at: p.location.map((l) => l.pointer).join(' '),
      }));
      expect(findings).toEqual([]);

      expect(r.body.info.license).toEqual(expect.objectContaining({ name: 'Apache-2.0' }));
      expect(r.body.servers[1].variables.port.default).toBe(String(definition.port(stack.config)));
      for (const [id, op] of apiOperations(r.body)) {
        expect({ id, security: op.security }).toEqual({ id, security: [{ 'x-auth-token': [] }] });
        expect({ id, scopes: op['x-required-scopes']?.every((s) => s in SCOPES) }).toEqual({
          id,
          scopes: true,
        });
        expect({ id, statuses: Object.keys(op.responses) }).toEqual({
          id,
          statuses: expect.arrayContaining(expectedStatuses(id, op)),
        });
        for (const [status, answer] of Object.entries(op.responses)) {
          const content = Object.keys(answer.content ?? {});
          expect({ id, status, described: !!answer.description?.trim(), content }).toEqual({
            id,
            status,
            described: true,
            // An error answer is problem+json only.
            content: Number(status) >= 400 ? ['application/problem+json'] : content,
          });
        }
      }
      await sut.close();
    },
  );
});
