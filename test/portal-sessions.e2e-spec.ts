import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CardApiApp } from '../apps/card-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { AppWorld, startAppWorld } from './support/app-world';
import { asPortal, createPortalLink, openPortalLink } from './support/builders/portal';
import { createWebhookEndpoint } from './support/builders/webhooks';
import { countRows, selectRows } from './support/db';
import { expectProblem } from './support/problems';

const FRAMING_ORIGIN = 'https://app.example.com';
const hook = { url: 'http://127.0.0.1:9/hook', notificationTypeCodes: ['PERSON_UPDATED'] };

/** Portal links and the browser sessions they open, on the notification API. */
describe('subscriber portal: links and sessions', () => {
  let world: AppWorld;
  beforeAll(async () => {
    world = await startAppWorld(NotificationApiApp, { PORTAL_FRAME_ANCESTORS: FRAMING_ORIGIN });
  });
  afterAll(() => world.stack.close());

  const sessionOf = async (token: string, body: { readOnly?: boolean } = {}) => {
    const opened = await openPortalLink(
      world.sut.url,
      (await createPortalLink(world.sut.api, token, body)).url,
    );
    if (!opened.cookie) throw new Error(`no session: ${opened.status}`);
    return opened.cookie;
  };

  it('issues a ten-minute one-time link, keeping only its digest, to a token with portal:create', async () => {
    const { tenant, token, tokenWith } = world.acme;
    const before = Date.now();
    const r = await world.sut.api.post('/api/v1/portal-sessions', {}, { token });
    expect(r.status).toBe(201);
    const code = new URL(r.body.url).searchParams.get('code');
    expect(new URL(r.body.url).pathname).toBe('/portal/session');
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const lifetime = Date.parse(r.body.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(9 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(10 * 60_000 + 1000);
    const rows = await selectRows(world.db, 'platform.portal_sessions', { tenant_id: tenant.id });
    expect(JSON.stringify(rows)).not.toContain(code);

    const readOnly = await tokenWith(['notifications:read', 'notifications:write']);
    const refused = await world.sut.api.post('/api/v1/portal-sessions', {}, { token: readOnly });
    expectProblem(refused, 403, 'insufficient_scope');
    expectProblem(
      await world.sut.api.post('/api/v1/portal-sessions', { readOnly: 'yes' }, { token }),
      400,
      'validation_failed',
    );
    expect(await countRows(world.db, 'platform.portal_sessions', { tenant_id: tenant.id })).toBe(1);

    // No body at all asks for a read-write link, as a bare `curl -X POST` does.
    const bare = await world.sut.api.post('/api/v1/portal-sessions', undefined, { token });
    expect([bare.status, new URL(bare.body.url).pathname]).toEqual([201, '/portal/session']);
  });

  it('opens the link into an HttpOnly, SameSite=Strict session cookie and redirects to the portal', async () => {
    const link = await createPortalLink(world.sut.api, world.acme.token);
    const opened = await openPortalLink(world.sut.url, link.url);
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/portal/');
    expect(opened.setCookie).toMatch(
      /^fincore_portal=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/,
    );
    expect(opened.headers.get('cache-control')).toBe('no-store');
    expect(opened.headers.get('referrer-policy')).toBe('no-referrer');

    const endpoints = await world.sut.api.get('/api/v1/webhook-endpoints', asPortal(opened.cookie!));
    expect(endpoints.status).toBe(200);
    const caller = await world.sut.api.get('/api/v1/portal-sessions/current', asPortal(opened.cookie!));
    expect(caller.body).toEqual({ tenantCode: world.acme.tenant.code, canChange: true });
  });

  it('refuses a link used twice (410), expired (410) or forged (400) with a page that says so', async () => {
    const link = await createPortalLink(world.sut.api, world.acme.token);
    expect((await openPortalLink(world.sut.url, link.url)).status).toBe(303);
    const again = await openPortalLink(world.sut.url, link.url);
    expect(again).toMatchObject({ status: 410, setCookie: null });
    expect(again.headers.get('content-type')).toMatch(/^text\/html/);
    expect(again.text).toContain('already been used');

    const stale = await createPortalLink(world.sut.api, world.acme.token);
    await world.db.query(
      `UPDATE platform.portal_sessions SET link_expires_at = now() - interval '1 second' WHERE opened_at IS NULL`,
    );
    const expired = await openPortalLink(world.sut.url, stale.url, { 'accept-language': 'de' });
    expect(expired).toMatchObject({ status: 410, setCookie: null });
    expect(expired.text).toContain('abgelaufen');

    const forged = `${world.sut.url}/portal/session?code=${'A'.repeat(43)}`;
    expect(await openPortalLink(world.sut.url, forged)).toMatchObject({ status: 400, setCookie: null });
    const malformed = await openPortalLink(world.sut.url, `${world.sut.url}/portal/session?code=x`);
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('not valid');
    expect(malformed.headers.get('content-security-policy')).toContain(`frame-ancestors ${FRAMING_ORIGIN}`);
  });

  it('refuses a change carried by the cookie alone (403), and takes it with the portal header', async () => {
    const cookie = await sessionOf(world.acme.token);
    const { tenant } = world.acme;
    const endpoints = { tenant_id: tenant.id };
    const before = await countRows(world.db, 'notifications.webhook_endpoints', endpoints);
    const bare = await world.sut.api.post(
      '/api/v1/webhook-endpoints',
      hook,
      asPortal(cookie, { withPortalHeader: false }),
    );
    expectProblem(bare, 403, 'portal_header_required');
    expect(await countRows(world.db, 'notifications.webhook_endpoints', endpoints)).toBe(before);
    const created = await world.sut.api.post('/api/v1/webhook-endpoints', hook, asPortal(cookie));
    expect(created.status).toBe(201);
    expect(await countRows(world.db, 'notifications.webhook_endpoints', endpoints)).toBe(before + 1);
  });

  it('lets a read-only session read and change nothing', async () => {
    const endpoint = await createWebhookEndpoint(world.sut.api, world.acme.token, hook);
    const cookie = await sessionOf(world.acme.token, { readOnly: true });
    expect(
      (await world.sut.api.get(`/api/v1/webhook-endpoints/${endpoint.id}`, asPortal(cookie))).status,
    ).toBe(200);
    const caller = await world.sut.api.get('/api/v1/portal-sessions/current', asPortal(cookie));
    expect(caller.body.canChange).toBe(false);
    expectProblem(
      await world.sut.api.post(`/api/v1/webhook-endpoints/${endpoint.id}/disable`, {}, asPortal(cookie)),
      403,
      'insufficient_scope',
    );
    expectProblem(
      await world.sut.api.delete(`/api/v1/webhook-endpoints/${endpoint.id}`, asPortal(cookie)),
      403,
      'insufficient_scope',
    );
    expectProblem(
      await world.sut.api.post('/api/v1/portal-sessions', {}, asPortal(cookie)),
      403,
      'insufficient_scope',
    );
    const after = await world.sut.api.get(`/api/v1/webhook-endpoints/${endpoint.id}`, {
      token: world.acme.token,
    });
    expect(after.body.status).toBe('ACTIVE');
  });

  it("binds the session to its tenant: another tenant's endpoint is a 404", async () => {
    const theirs = await createWebhookEndpoint(world.sut.api, world.other.token, hook);
    const cookie = await sessionOf(world.acme.token);
    expectProblem(
      await world.sut.api.get(`/api/v1/webhook-endpoints/${theirs.id}`, asPortal(cookie)),
      404,
      'webhook_endpoint_not_found',
    );
    expectProblem(
      await world.sut.api.post(`/api/v1/webhook-endpoints/${theirs.id}/disable`, {}, asPortal(cookie)),
      404,
      'webhook_endpoint_not_found',
    );
  });

  it('refuses an unknown or expired session cookie (401), and other APIs take no portal session', async () => {
    const cookie = await sessionOf(world.acme.token);
    expectProblem(
      await world.sut.api.get('/api/v1/webhook-endpoints', asPortal(`fincore_portal=${'B'.repeat(43)}`)),
      401,
      'unauthenticated',
    );
    const cards = await world.stack.startApp(CardApiApp);
    expectProblem(await cards.api.get('/api/v1/usage-groups', asPortal(cookie)), 401, 'unauthenticated');
    await world.db.query(
      `UPDATE platform.portal_sessions SET expires_at = now() - interval '1 second' WHERE opened_at IS NOT NULL`,
    );
    expectProblem(
      await world.sut.api.get('/api/v1/webhook-endpoints', asPortal(cookie)),
      401,
      'unauthenticated',
    );
  });

  it('prints a working link from the CLI, and nothing else', async () => {
    const main = join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [main, ...args], {
        env: { PATH: process.env.PATH ?? '', ...world.stack.env },
        encoding: 'utf8',
      });
    const r = cli('portal:link', '--tenant', world.acme.tenant.code, '--read-only');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/portal\/session\?code=[A-Za-z0-9_-]{43}\n$/);
    const cookie = (await openPortalLink(world.sut.url, r.stdout.trim())).cookie!;
    expectProblem(
      await world.sut.api.post('/api/v1/webhook-endpoints', hook, asPortal(cookie)),
      403,
      'insufficient_scope',
    );
    const unknown = cli('portal:link', '--tenant', 'NOPE');
    expect(unknown).toMatchObject({ status: 1, stdout: '' });
    expect(cli('portal:link').status).toBe(2);
  });

  it('serves the built portal under /portal/: the page revalidated, its hashed assets immutable, a strict policy', async () => {
    const home = await fetch(`${world.sut.url}/`, { redirect: 'manual' });
    expect([home.status, home.headers.get('location')]).toEqual([302, '/portal/']);
    const page = await fetch(`${world.sut.url}/portal/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const policy = page.headers.get('content-security-policy');
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain(`frame-ancestors ${FRAMING_ORIGIN}`);
    const script = /src="(\/portal\/assets\/[^"]+\.js)"/.exec(await page.text())![1];
    const asset = await fetch(`${world.sut.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
  });
});
