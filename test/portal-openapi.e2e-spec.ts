import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { TestStack } from './support/stack';

const SNAPSHOT = join(__dirname, '..', 'apps', 'portal', 'openapi.json');

/**
 * The portal's typed client is generated at build time from this checked-in copy of the
 * notification API's document (the build has no database to boot the app on): it must be the
 * document the app serves. `UPDATE_OPENAPI=1` rewrites it; review its diff.
 */
describe("portal: the notification API's OpenAPI document it is built from", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.create();
  });
  afterAll(() => stack.close());

  it('is the document notification-api serves', async () => {
    const app = await stack.startApp(NotificationApiApp);
    const served = (await app.api.get('/docs-json')).body;
    // The port variable differs per run; everything else is the document.
    delete served.servers;
    const text = `${JSON.stringify(served, null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(SNAPSHOT, text);
    expect(JSON.parse(readFileSync(SNAPSHOT, 'utf8'))).toEqual(served);
  });
});
