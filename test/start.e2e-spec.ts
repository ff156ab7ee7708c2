import { spawn, spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import { loadConfig } from '@fincore/platform';
import { eventually } from './support/http';
import { stateDir } from './support/launcher';
import { freePort, TestStack } from './support/stack';

const root = join(__dirname, '..');
const dist = (...parts: string[]) => join(root, 'dist', ...parts);

/** A port something else listens on, as another stack's app would. */
async function takenPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
  return { port, server };
}

/** `npm start` as a user runs it (the built launcher), and the start-up failures users can hit. */
describe('npm start launcher', () => {
  let stack: TestStack;
  const state = stateDir();
  beforeAll(async () => {
    stack = await TestStack.create();
  });
  afterAll(async () => {
    await stack.close();
    state.remove();
  });

  it('starts the four apps ready, prints their URLs and a working demo token, and exits 0 on SIGTERM', async () => {
    const ports = {
      CREDENTIALS_API_PORT: await freePort(),
      CARD_API_PORT: await freePort(),
      NOTIFICATION_API_PORT: await freePort(),
      NOTIFIER_PORT: await freePort(),
    };
    let output = '';
    const launcher = spawn(process.execPath, [dist('scripts', 'start.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        ...stack.env,
        LOG_LEVEL: 'warn',
        FINCORE_STATE_DIR: state.path,
        ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    launcher.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    launcher.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    try {
      await eventually(() => output.includes('fincore is running'), {
        timeoutMs: 45_000,
        intervalMs: 200,
        what: `the launcher to report ready:\n${output}`,
      });
      for (const port of Object.values(ports)) {
        expect(output).toContain(`http://127.0.0.1:${port}`);
        expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
      }
      const token = output.match(/fct_[A-Za-z0-9_-]{43}/)?.[0];
      expect(token).toBeDefined();
      const person = await fetch(
        `http://127.0.0.1:${ports.CREDENTIALS_API_PORT}/api/v1/persons/demo-person-1`,
        { headers: { 'x-auth-token': token! } },
      );
      expect(person.status).toBe(200);
      const portalLink = output.match(/http:\/\/127\.0\.0\.1:\d+\/portal\/session\?code=[\w-]{43}/)?.[0];
      expect(portalLink).toContain(`:${ports.NOTIFICATION_API_PORT}/`);
      expect((await fetch(portalLink!, { redirect: 'manual' })).status).toBe(303);
      expect(output).toMatch(/Bull Board .*\/admin\/queues\s+\(user admin, password \S+\)/);
    } finally {
      launcher.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    for (const port of Object.values(ports)) {
      await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
    }
  }, 90_000);

  it('names the dependency that is down and where, without a stack trace', () => {
    const redisDown = spawnSync(process.execPath, [dist('apps', 'card-api', 'src', 'main.js')], {
      env: { PATH: process.env.PATH ?? '', ...stack.env, REDIS_URL: 'redis://127.0.0.1:1' },
      encoding: 'utf8',
    });
    expect(redisDown.status).toBe(1);
    expect(redisDown.stderr).toMatch(/^\[card-api\] Redis is unreachable at 127\.0\.0\.1:1 \(REDIS_URL\)/);
    expect(redisDown.stderr).not.toMatch(/\n\s+at /);

    const postgresDown = spawnSync(process.execPath, [dist('apps', 'notifier', 'src', 'main.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        ...stack.env,
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/fincore',
      },
      encoding: 'utf8',
    });
    expect(postgresDown.status).toBe(1);
    expect(postgresDown.stderr).toMatch(
      /^\[notifier\] PostgreSQL is unreachable at 127\.0\.0\.1:1\/fincore \(DATABASE_URL\)/,
    );
  });

  it('npm start refuses before building while one of its ports is taken, and says which', async () => {
    const taken = await takenPort();
    const build = statSync(dist('scripts', 'start.js'));
    try {
      const refused = spawnSync('npm', ['start'], {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          ...stack.env,
          FINCORE_STATE_DIR: state.path,
          CREDENTIALS_API_PORT: String(await freePort()),
          CARD_API_PORT: String(taken.port),
          NOTIFICATION_API_PORT: String(await freePort()),
          NOTIFIER_PORT: String(await freePort()),
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(
        `fincore: cannot listen on 127.0.0.1, port ${taken.port} (CARD_API_PORT): EADDRINUSE; is fincore already running?`,
      );
      expect(refused.stdout).not.toContain('fincore is running');
    } finally {
      taken.server.close();
    }
    // Not rebuilt: the build removes dist/ first, so the file would be a new one.
    const after = statSync(dist('scripts', 'start.js'));
    expect([after.ino, after.mtimeMs]).toEqual([build.ino, build.mtimeMs]);
  }, 90_000);

  it('checks the ports and host the configuration defaults to', () => {
    const listed = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(join(root, 'scripts', 'ports-free.mjs'))});` +
          'process.stdout.write(JSON.stringify({ ...m.PORTS, HOST: m.DEFAULT_HOST }));',
      ],
      { encoding: 'utf8' },
    );
    const defaults = loadConfig({});
    expect(JSON.parse(listed.stdout)).toEqual({
      CREDENTIALS_API_PORT: defaults.CREDENTIALS_API_PORT,
      CARD_API_PORT: defaults.CARD_API_PORT,
      NOTIFICATION_API_PORT: defaults.NOTIFICATION_API_PORT,
      NOTIFIER_PORT: defaults.NOTIFIER_PORT,
      HOST: defaults.HOST,
    });
  });

  it.each([
    ['notification-api', 'WEBHOOK_SECRET_KEY'],
    ['notifier', 'WEBHOOK_SECRET_KEY'],
    ['notifier', 'BULL_BOARD_PASSWORD'],
  ])('%s refuses to start in production without %s, saying why, without a stack trace', (app, missing) => {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      ...stack.env,
      NODE_ENV: 'production',
    };
    delete env[missing];
    const refused = spawnSync(process.execPath, [dist('apps', app, 'src', 'main.js')], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect({ status: refused.status, stderr: refused.stderr }).toEqual({
      status: 1,
      stderr: expect.stringMatching(
        new RegExp(`^\\[${app}\\] cannot start: ${missing} is required in production`),
      ),
    });
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });
});
