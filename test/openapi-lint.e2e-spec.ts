import { createConfig, lintFromString } from '@redocly/openapi-core';
import type { AppDefinition } from '@fincore/platform';
import { CardApiApp } from '../apps/card-api/src/app.definition';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { TestStack } from './support/stack';

/**
 * Each API's served document passes redocly's recommended rules without an error or a warning,
 * so a client generator can take it as it is.
 */
describe('OpenAPI documents', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.create();
  });
  afterAll(() => stack.close());

  it.each([CredentialsApiApp, CardApiApp, NotificationApiApp].map((d) => [d.name, d]))(
    '%s: /docs-json passes the recommended ruleset',
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
      if (process.env.OPENAPI_DUMP) {
        const { writeFileSync } = await import('node:fs');
        writeFileSync(`${process.env.OPENAPI_DUMP}/${definition.name}.json`, JSON.stringify(r.body, null, 2));
        writeFileSync(
          `${process.env.OPENAPI_DUMP}/${definition.name}.lint.json`,
          JSON.stringify(findings, null, 2),
        );
      }
      expect(findings).toEqual([]);
      await sut.close();
    },
  );
});
