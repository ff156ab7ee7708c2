import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { authenticatePerson, createPerson, PersonInput } from './support/builders/persons';
import { createWebhookEndpoint, enableNotifications } from './support/builders/webhooks';
import { ApiClient, eventually, expectStatus } from './support/http';
import { freePort, SpawnedApp, TestStack } from './support/stack';
import { WebhookReceiver } from './support/webhook-receiver';

const dist = (...parts: string[]) => join(__dirname, '..', 'dist', ...parts);
const APPS = ['credentials-api', 'card-api', 'notification-api', 'notifier'] as const;

/** Settings whose values must never be logged, fresh per stack so no other text holds them by chance. */
const secretSettings = () => ({
  LOG_LEVEL: 'debug',
  BULL_BOARD_PASSWORD: `bb-${randomBytes(12).toString('base64url')}`,
  WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
});

const basicAuth = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** Each secret, and the parts of it a log line could hold without the rest. */
function variantsOf(secrets: string[]): string[] {
  return [
    ...new Set(
      secrets.flatMap((s) => [s, s.replace(/^(whsec_|v1,|Basic )/, '')]).filter((s) => s.length >= 8),
    ),
  ];
}

/** The log lines holding any of the secrets, each shortened around the first it holds. */
function linesWithSecrets(lines: string[], secrets: string[]): string[] {
  const variants = variantsOf(secrets);
  return lines.flatMap((line) => {
    const found = variants.find((v) => line.includes(v));
    return found ? [`${found.slice(0, 6)}… in: ${line.slice(0, 300)}`] : [];
  });
}

async function stopAndDrain(app: SpawnedApp): Promise<void> {
  await app.stop('SIGTERM');
  const drained = (stream: Readable | null) =>
    !stream || stream.readableEnded ? undefined : once(stream, 'end');
  await Promise.all([drained(app.process.stdout), drained(app.process.stderr)]);
}

const requestLines = (output: string) =>
  output.split('\n').filter((line) => line.includes('"msg":"request completed"'));

/**
 * What every process writes at LOG_LEVEL=debug while it handles passwords, API tokens, webhook
 * secrets and signatures, and the Bull Board login: none of those values, in any line.
 */
describe('secrets never reach a log line', () => {
  it('holds for the four apps and the CLI through the whole flow', async () => {
    const stack = await TestStack.create(secretSettings());
    const receiver = await WebhookReceiver.start();
    try {
      // One after the other: four processes booting at once starve a busy machine.
      const apps = {} as Record<(typeof APPS)[number], SpawnedApp>;
      for (const name of APPS) apps[name] = await stack.spawnApp(name);
      const cliOutput: string[] = [];
      const cli = (...args: string[]) => {
        const r = spawnSync(process.execPath, [dist('apps', 'cli', 'src', 'main.js'), ...args], {
          env: { PATH: process.env.PATH ?? '', ...stack.env },
          encoding: 'utf8',
        });
        expect(r.status).toBe(0);
        cliOutput.push(r.stderr);
        return r.stdout;
      };
      const secrets: string[] = [stack.env.BULL_BOARD_PASSWORD, stack.env.WEBHOOK_SECRET_KEY];

      // An operator makes a tenant and its API token with the CLI; its stdout is the token alone.
      const code = `S${randomBytes(4).toString('hex').toUpperCase()}`;
      cliOutput.push(cli('tenant:create', code));
      const created = cli('token:create', '--tenant', code, '--scopes', 'all', '--name', 'secrets');
      expect(created).toMatch(/^fct_[A-Za-z0-9_-]{43}\n$/);
      const token = created.trim();
      secrets.push(token);

      // Webhooks on, an endpoint on the receiver, its secret rotated: both secrets sign for a while.
      const notifications = new ApiClient(apps['notification-api'].url);
      await enableNotifications(notifications, token);
      const endpoint = await createWebhookEndpoint(notifications, token, { url: `${receiver.url}/${code}` });
      const rotated = expectStatus(
        await notifications.post(`/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {}, { token }),
        200,
        'rotate the secret',
      );
      secrets.push(endpoint.secret, rotated.body.secret);

      // Persons with passwords: authenticated right and wrong, invalidated, given new credentials.
      const credentials = new ApiClient(apps['credentials-api'].url);
      const person = await createPerson(credentials, token);
      const wrong: PersonInput = { ...person, password: 'a wrong guess at the password' };
      const renewed = { username: `${person.username}.new`, password: 'a renewed passphrase!' };
      secrets.push(person.password, wrong.password, renewed.password);
      expect((await authenticatePerson(credentials, token, person)).status).toBe(200);
      const wrongAttempt = await credentials.post(
        '/api/v1/credentials/authenticate',
        { username: wrong.username, password: wrong.password },
        { token, headers: { 'x-request-id': `wrong-password-${code}` } },
      );
      expect(wrongAttempt.status).toBe(401);
      const invalidate = (p: PersonInput) => credentials.post('/api/v1/credentials/invalidate', p, { token });
      expect((await invalidate(wrong)).status).toBe(422);
      expectStatus(await invalidate(person), 200, 'invalidate');
      expectStatus(
        await credentials.put(`/api/v1/persons/${person.personId}/credentials`, renewed, { token }),
        200,
        'set new credentials',
      );
      expect((await authenticatePerson(credentials, token, renewed)).status).toBe(200);
      expect((await new ApiClient(apps['card-api'].url).get('/api/v1/service-codes', { token })).status).toBe(
        200,
      );

      // Each change was a PERSON_UPDATED webhook, signed with the new secret and the old one.
      const webhooks = await receiver.waitFor(2, { timeoutMs: 20_000 });
      const signatures = webhooks.flatMap((w) => String(w.headers['webhook-signature']).split(' '));
      expect(signatures.length).toBeGreaterThanOrEqual(4);
      secrets.push(...signatures);

      // Bull Board opened with its password, and tried with a wrong one.
      const board = `${apps.notifier.url}/admin/queues`;
      const { BULL_BOARD_USERNAME: user, BULL_BOARD_PASSWORD: password } = stack.config;
      const wrongBoardPassword = `${password}-wrong`;
      for (const [pass, status] of [
        [password!, 200],
        [wrongBoardPassword, 401],
      ] as const) {
        const authorization = basicAuth(user, pass);
        expect((await fetch(`${board}/api/queues`, { headers: { authorization } })).status).toBe(status);
        secrets.push(authorization);
      }
      secrets.push(wrongBoardPassword);

      // Stopped, and their pipes read to the end: every line they wrote, shutdown included.
      await Promise.all(APPS.map((name) => stopAndDrain(apps[name])));
      const outputs: Record<string, string> = {
        ...Object.fromEntries(APPS.map((name) => [name, apps[name].output()])),
        cli: cliOutput.join(''),
      };
      // The capture is real: every app wrote a line per request it served.
      for (const name of APPS) expect(requestLines(outputs[name]).length).toBeGreaterThan(0);
      expect(requestLines(outputs['credentials-api']).join('\n')).toContain(
        '"route":"/api/v1/credentials/authenticate"',
      );
      expect(requestLines(outputs.notifier).join('\n')).toContain('"statusCode":401');
      const wrongAttemptLine = requestLines(outputs['credentials-api'])
        .map((line) => JSON.parse(line))
        .find((line) => line.requestId === `wrong-password-${code}`);
      expect(wrongAttemptLine).toEqual({
        level: 30,
        time: expect.any(Number),
        pid: expect.any(Number),
        hostname: expect.any(String),
        name: 'credentials-api',
        app: 'credentials-api',
        requestId: `wrong-password-${code}`,
        method: 'POST',
        route: '/api/v1/credentials/authenticate',
        path: '/api/v1/credentials/authenticate',
        statusCode: 401,
        responseTime: expect.any(Number),
        msg: 'request completed',
      });
      for (const [name, output] of Object.entries(outputs)) {
        expect({ [name]: linesWithSecrets(output.split('\n'), secrets) }).toEqual({ [name]: [] });
      }
    } finally {
      await receiver.stop();
      await stack.close();
    }
  }, 150_000);

  it('holds for the processes `npm start` launches; only its banner shows the demo token and the login', async () => {
    const stack = await TestStack.create();
    const settings = secretSettings();
    const ports = {
      CREDENTIALS_API_PORT: await freePort(),
      CARD_API_PORT: await freePort(),
      NOTIFICATION_API_PORT: await freePort(),
      NOTIFIER_PORT: await freePort(),
    };
    // The launcher keeps its demo token and the apps' logs in its state directory.
    const state = await mkdtemp(join(tmpdir(), 'fincore-secrets-'));
    let output = '';
    const launcher = spawn(process.execPath, [dist('scripts', 'start.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        ...stack.env,
        ...settings,
        FINCORE_STATE_DIR: state,
        ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The apps write to the launcher's pipes: they close once every process has exited.
    const closed = once(launcher, 'close');
    launcher.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    launcher.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const secrets: string[] = [settings.BULL_BOARD_PASSWORD, settings.WEBHOOK_SECRET_KEY];
    let token: string;
    try {
      await eventually(() => output.includes('fincore is running'), {
        timeoutMs: 90_000,
        intervalMs: 200,
        what: `the launcher to report ready:\n${output}`,
      });
      token = output.match(/fct_[A-Za-z0-9_-]{43}/)![0];
      const credentials = new ApiClient(`http://127.0.0.1:${ports.CREDENTIALS_API_PORT}`);
      const person = await createPerson(credentials, token);
      const wrong = { ...person, password: 'not the password of the person' };
      expect((await authenticatePerson(credentials, token, person)).status).toBe(200);
      expect((await authenticatePerson(credentials, token, wrong)).status).toBe(401);
      const authorization = basicAuth(stack.config.BULL_BOARD_USERNAME, settings.BULL_BOARD_PASSWORD);
      const board = `http://127.0.0.1:${ports.NOTIFIER_PORT}/admin/queues/api/queues`;
      expect((await fetch(board, { headers: { authorization } })).status).toBe(200);
      secrets.push(token, person.password, wrong.password, authorization);
    } finally {
      launcher.kill('SIGTERM');
      await closed;
      await stack.close();
    }
    const logDir = join(state, 'logs');
    const logs = (
      await Promise.all((await readdir(logDir)).map((file) => readFile(join(logDir, file), 'utf8')))
    ).join('\n');
    await rm(state, { recursive: true, force: true });

    const lines = output.split('\n');
    expect(requestLines(logs).length).toBeGreaterThanOrEqual(4);
    expect(linesWithSecrets(logs.split('\n'), secrets)).toEqual([]);
    expect(
      linesWithSecrets(
        lines.filter((line) => line.startsWith('{')),
        secrets,
      ),
    ).toEqual([]);
    // The banner is for the person at the terminal: the login and the token to export.
    const banner = lines.filter((line) => !line.startsWith('{'));
    expect(banner.filter((line) => variantsOf(secrets).some((v) => line.includes(v)))).toEqual([
      expect.stringMatching(/Bull Board .*password /),
      `  export TOKEN=${token}`,
    ]);
  }, 150_000);
});
