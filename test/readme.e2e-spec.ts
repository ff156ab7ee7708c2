import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from './support/http';
import { checkoutScripts, Launch, launch, stateDir } from './support/launcher';
import { ReadmeBlock, ShellSession, walkthroughBlocks } from './support/readme';
import { TestStack } from './support/stack';

const README = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

/**
 * The README's walkthrough, run as a reader does: `npm start` on a fresh database (the built
 * launcher, on free ports and a state directory of its own), then every ```sh block of
 * "The four operations, with the demo data" in order in one bash, from the directory holding the
 * state directory as `.fincore` (and a package.json naming the checkout's `cli` script, so that
 * `npm run -s cli` works there as in the checkout). The README's URLs name the default ports,
 * 3001–3004; the blocks are run with the test's ports instead. Then `npm start` is stopped
 * (Ctrl-C) and started again on the same database and ports, and in the same shell the blocks that
 * change nothing new (credentials, card settings, fee quote, the token) must answer as before; the
 * notification blocks are not repeated, since `listen` already runs.
 */
describe('the README walkthrough', () => {
  let stack: TestStack;
  const state = stateDir();
  const fincoreDir = join(state.path, '.fincore');
  let launched: Launch;
  let shell: ShellSession;
  let blocks: ReadmeBlock[];
  const env = () => ({
    DATABASE_URL: stack.env.DATABASE_URL,
    REDIS_URL: stack.env.REDIS_URL,
    QUEUE_PREFIX: stack.env.QUEUE_PREFIX,
    LOG_LEVEL: 'warn',
  });
  const section = (prefix: string) => blocks.filter((b) => b.section && b.section.startsWith(prefix));
  const tokenBlock = () => blocks.find((b) => b.section === '')!;
  const api = (port: string, path: string, token: string) =>
    fetch(`http://127.0.0.1:${launched.ports[port]}${path}`, { headers: { 'x-auth-token': token } });
  const shellValue = async (name: string) => (await shell.run(`printf '%s' "$${name}"`)).trim();

  beforeAll(async () => {
    stack = await TestStack.create();
    launched = await launch(env(), { state: fincoreDir });
    await launched.ready();
    blocks = walkthroughBlocks(README, {
      3001: launched.ports.CREDENTIALS_API_PORT,
      3002: launched.ports.CARD_API_PORT,
      3003: launched.ports.NOTIFICATION_API_PORT,
      3004: launched.ports.NOTIFIER_PORT,
    });
    checkoutScripts(state.path, { cli: (script) => script });
    shell = ShellSession.start(state.path, { PATH: process.env.PATH ?? '', HOME: state.path });
  }, 90_000);

  afterAll(async () => {
    await shell?.close();
    if (launched && launched.process.exitCode === null) {
      launched.process.kill('SIGTERM');
      await launched.exited;
    }
    await stack.close();
    state.remove();
  });

  // What the README says each section's blocks print (the parts of it a reader checks).
  async function runCredentials(fresh: boolean) {
    const [block] = section('Credentials');
    const printed = await shell.run(block.code);
    // Once invalidated, authenticate answers 401 and invalidate the same as before.
    if (fresh) expect(printed).toMatch(/^\{"authenticated":true,"personId":"demo-person-1",/);
    expect(printed).toMatch(/\{"personId":"demo-person-1","status":"INVALIDATED","invalidatedAt":"[^"]+"\}/);
  }
  async function runCardSettings() {
    const [block] = section('Card settings');
    expect(await shell.run(block.code)).toContain(
      '{"cardId":"CARD-DEMO-VISA-1","serviceCode":"01","allowed":false,"reason":"DISABLED_IN_CARD_SETTINGS"',
    );
  }
  async function runFeeQuote() {
    const [block] = section('Fee quotes');
    const quote = JSON.parse(await shell.run(block.code));
    expect(quote.totalPrice).toEqual({ amount: 7.76, currencyCode: 'EUR' });
  }

  it('runs top to bottom on a fresh database: token, the four operations, a verified webhook', async () => {
    expect(blocks.map((b) => b.section)).toEqual([
      '',
      'Credentials (credentials-api, :3001)',
      'Card settings (card-api, :3002)',
      'Fee quotes (card-api, :3002)',
      ...Array(4).fill('Notifications and signed webhooks (notification-api :3003, notifier :3004)'),
    ]);
    await shell.run(tokenBlock().code);
    const token = await shellValue('TOKEN');
    expect(launched.output()).toContain(`export TOKEN=${token}`);

    await runCredentials(true);
    const login = await fetch(
      `http://127.0.0.1:${launched.ports.CREDENTIALS_API_PORT}/api/v1/credentials/authenticate`,
      {
        method: 'POST',
        headers: { 'x-auth-token': token, 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'demo.user', password: 'Demo-Passw0rd-2025' }),
      },
    );
    expect(login.status).toBe(401);
    await runCardSettings();
    await runFeeQuote();

    const [listen, change, events, portal] = section('Notifications');
    await shell.run(listen.code);
    await eventually(() => shell.printed().includes('Printing events'), { what: 'listen to start' });

    await shell.run(change.code);
    // listen's line may follow curl's output on the same line (curl prints no newline).
    const printed = await eventually(
      () => /\{"id":.*"type":"PERSON_UPDATED".*$/m.exec(shell.printed())?.[0],
      {
        timeoutMs: 30_000,
        what: 'listen to print the event',
      },
    );
    const envelope = JSON.parse(printed);
    expect(envelope).toMatchObject({
      type: 'PERSON_UPDATED',
      subject: { type: 'person', id: 'demo-person-1' },
      data: { personId: 'demo-person-1', changedFields: ['phone'] },
    });
    const read = JSON.parse(await shell.run(events.code));
    expect(read.items).toEqual([{ cursor: expect.any(String), event: envelope }]);
    await eventually(
      () => readFileSync(join(fincoreDir, 'listen-cursor'), 'utf8').trim() === read.items[0].cursor,
      { what: 'listen to keep its cursor' },
    );

    // The portal link opens a session: a cookie, and on to the portal.
    const { url } = JSON.parse(await shell.run(portal.code));
    expect(url).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${launched.ports.NOTIFICATION_API_PORT}/portal/`),
    );
    const opened = await fetch(url, { redirect: 'manual' });
    expect([opened.status, opened.headers.get('location')]).toEqual([303, '/portal/']);
    expect(opened.headers.get('set-cookie')).toMatch(/HttpOnly/i);
  }, 120_000);

  it('still works after npm start restarts on the same database: same token, same answers', async () => {
    const token = await shellValue('TOKEN');
    process.kill(-launched.process.pid!, 'SIGINT'); // Ctrl-C in its terminal
    expect(await launched.exited).toBe(0);
    launched = await launch(env(), { state: fincoreDir, ports: launched.ports });
    await launched.ready();
    expect(launched.output()).toContain(`export TOKEN=${token}`);
    expect(launched.output()).not.toContain('(seeded now)');

    // TOKEN set before the restart still works; setting it again gives the same one.
    await runCredentials(false);
    await runCardSettings();
    await runFeeQuote();
    await shell.run(tokenBlock().code);
    expect(await shellValue('TOKEN')).toBe(token);
    expect((await api('CREDENTIALS_API_PORT', '/api/v1/persons/demo-person-1', token)).status).toBe(200);
  }, 120_000);
});
