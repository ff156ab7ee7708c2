import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { AppWorld, startAppWorld } from './support/app-world';
import { asPortal, createPortalLink, openPortalLink } from './support/builders/portal';
import { expectProblem } from './support/problems';
import type { RunningApp } from './support/stack';

const ENDED_COOKIE = 'fincore_portal=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict';

/** Signing out of the portal, and the session cookie behind a proxy that terminates TLS. */
describe('subscriber portal: signing out, and the cookie behind a proxy', () => {
  let world: AppWorld;
  beforeAll(async () => {
    world = await startAppWorld(NotificationApiApp);
  });
  afterAll(() => world.stack.close());

  /** A session opened through `app`, with the headers a proxy in front of it would add. */
  const open = async (
    app: RunningApp,
    options: { readOnly?: boolean; headers?: Record<string, string> } = {},
  ) => {
    const link = await createPortalLink(world.sut.api, world.token, { readOnly: options.readOnly });
    return openPortalLink(app.url, link.url, options.headers);
  };
  const signOut = (app: RunningApp, cookie: string, { withPortalHeader = true, headers = {} } = {}) => {
    const portal = asPortal(cookie, { withPortalHeader });
    return app.api.delete('/api/v1/portal-sessions/current', { headers: { ...portal.headers, ...headers } });
  };

  it('ends the session on the server, so its cookie opens nothing on any replica, and drops the cookie', async () => {
    const replica = await world.stack.startApp(NotificationApiApp);
    const { cookie } = await open(world.sut);
    const bare = await signOut(world.sut, cookie!, { withPortalHeader: false });
    expectProblem(bare, 403, 'portal_header_required');
    expect((await replica.api.get('/api/v1/webhook-endpoints', asPortal(cookie!))).status).toBe(200);

    const ended = await signOut(world.sut, cookie!);
    expect([ended.status, ended.headers.get('set-cookie')]).toEqual([204, ENDED_COOKIE]);
    for (const app of [world.sut, replica]) {
      expectProblem(
        await app.api.get('/api/v1/webhook-endpoints', asPortal(cookie!)),
        401,
        'unauthenticated',
      );
      expectProblem(await signOut(app, cookie!), 401, 'unauthenticated');
    }
  });

  it('lets a read-only session sign out, and refuses an API token with a problem', async () => {
    const { cookie } = await open(world.sut, { readOnly: true });
    expect((await signOut(world.sut, cookie!)).status).toBe(204);
    expectProblem(
      await world.sut.api.get('/api/v1/portal-sessions/current', asPortal(cookie!)),
      401,
      'unauthenticated',
    );
    const r = await world.sut.api.delete('/api/v1/portal-sessions/current', { token: world.token });
    expectProblem(r, 400, 'portal_session_required');
    expect(r.headers.get('set-cookie')).toBeNull();
  });

  it('makes the cookie Secure when a trusted proxy says the browser came over https, and only then', async () => {
    const forwarded = { headers: { 'x-forwarded-proto': 'https' } };
    const behindProxy = await world.stack.startApp(NotificationApiApp, { TRUST_PROXY: '127.0.0.1' });
    const otherProxy = await world.stack.startApp(NotificationApiApp, { TRUST_PROXY: '10.0.0.0/8' });

    const secure = await open(behindProxy, forwarded);
    expect(secure.setCookie).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    const ended = await signOut(behindProxy, secure.cookie!, forwarded);
    expect(ended.headers.get('set-cookie')).toBe(`${ENDED_COOKIE}; Secure`);

    // Without the header, from a proxy not trusted, or with no proxy trusted: plain http.
    for (const [app, headers] of [
      [behindProxy, {}],
      [otherProxy, forwarded.headers],
      [world.sut, forwarded.headers],
    ] as const) {
      const opened = await open(app, { headers });
      expect(opened.setCookie).toMatch(/; HttpOnly; SameSite=Strict$/);
    }
  });
});
