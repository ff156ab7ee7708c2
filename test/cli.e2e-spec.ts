import { spawn, spawnSync } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { ALL_SCOPES } from '@fincore/platform';
import { freePort } from './support/net';
import { TestStack } from './support/stack';

const root = join(__dirname, '..');
const main = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');

/** The operator CLI as users run it: the built entry point, its stdout, stderr and exit code. */
describe('operator CLI', () => {
  let stack: TestStack;
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [main, ...args], {
      env: { PATH: process.env.PATH ?? '', ...stack.env },
      encoding: 'utf8',
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  beforeAll(async () => {
    stack = await TestStack.create();
  });
  afterAll(() => stack.close());

  it('migrate is idempotent', () => {
    const r = cli('migrate');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('up to date');
  });

  it('migrate waits for a PostgreSQL that is not accepting connections yet, saying so on each wait', async () => {
    const real = new URL(stack.env.DATABASE_URL);
    const port = await freePort();
    const late = new URL(stack.env.DATABASE_URL);
    late.host = `127.0.0.1:${port}`;
    // PostgreSQL "comes up" on the port only once migrate has said it is waiting for it.
    const relay = createServer((client) => {
      const server = createConnection(Number(real.port || 5432), real.hostname);
      client.pipe(server).pipe(client);
      client.on('error', () => server.destroy());
      server.on('error', () => client.destroy());
    });
    const child = spawn(process.execPath, [main, 'migrate'], {
      env: { PATH: process.env.PATH ?? '', ...stack.env, DATABASE_URL: late.toString() },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes('waiting for PostgreSQL') && !relay.listening) relay.listen(port, '127.0.0.1');
    });
    try {
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(stderr).toMatch(
        /waiting for PostgreSQL at 127\.0\.0\.1:\d+\/\S+ \(ECONNREFUSED\); next try in [\d.]+ s/,
      );
      expect(code).toBe(0);
      expect(stderr).toContain('up to date');
    } finally {
      await new Promise((resolve) => relay.close(resolve));
    }
  });

  it('creates a tenant, refuses a duplicate or malformed code', () => {
    const r = cli('tenant:create', 'CLI1', '--name', 'CLI Bank');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ code: 'CLI1', name: 'CLI Bank' });
    expect(cli('tenant:create', 'CLI1').code).toBe(1);
    const bad = cli('tenant:create', 'bad code!');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Tenant code/);
  });

  it('token:create prints only the token on stdout; token:list never shows it; token:revoke works once', async () => {
    cli('tenant:create', 'CLI2');
    const created = cli(
      'token:create',
      '--tenant',
      'CLI2',
      '--scopes',
      'cards:read,fees:quote',
      '--name',
      'ops',
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^fct_[A-Za-z0-9_-]{43}\n$/);
    const token = created.stdout.trim();

    const list = JSON.parse(cli('token:list', '--tenant', 'CLI2').stdout);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: 'ops', scopes: ['cards:read', 'fees:quote'], revokedAt: null });
    expect(JSON.stringify(list)).not.toContain(token);
    const [stored] = await (
      await stack.db()
    ).query(`SELECT token_hash FROM platform.api_tokens WHERE id = $1`, [list[0].id]);
    expect(stored.token_hash).not.toContain(token);

    expect(cli('token:revoke', list[0].id).code).toBe(0);
    expect(cli('token:revoke', list[0].id).code).toBe(1);
    expect(JSON.parse(cli('token:list', '--tenant', 'CLI2').stdout)[0].revokedAt).not.toBeNull();
  });

  it('prints usage and exits non-zero on bad arguments', () => {
    for (const args of [
      [],
      ['token:create'],
      ['token:create', '--tenant'],
      ['tenant:create'],
      ['token:revoke', 'not-a-uuid'],
      ['token:list', '--bogus', 'x'],
    ]) {
      const r = cli(...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('Usage: npm run -s cli');
      expect(r.stdout).toBe('');
    }
    const nonsense = cli('nonsense');
    expect(nonsense.code).toBe(2);
    expect(nonsense.stderr).toBe('error: unknown command "nonsense" (usage: npm run -s cli -- help)\n');
    const noScopes = cli('token:create', '--tenant', 'CLI1');
    expect(noScopes.code).toBe(2);
    expect(noScopes.stderr).toMatch(/--scopes is required: a comma-separated list of .*cards:read.*; or all/);
    const unknownScope = cli('token:create', '--tenant', 'CLI1', '--scopes', 'everything');
    expect(unknownScope.code).toBe(1);
    expect(unknownScope.stderr).toMatch(/Unknown scope/);
  });

  it('help and --help print the usage on stdout and exit 0, without needing a valid configuration', () => {
    for (const args of [['help'], ['--help'], ['-h']]) {
      const r = spawnSync(process.execPath, [main, ...args], {
        env: { CARD_API_PORT: 'abc' },
        encoding: 'utf8',
      });
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('Usage: npm run -s cli -- <command>');
      expect(r.stdout).toContain('token:create --tenant <code> --scopes <a,b|all>');
      expect(r.stderr).toBe('');
    }
  });

  it('through npm as the README shows: stdout is only the token, a typo gets the nearest command', async () => {
    const npm = (...args: string[]) =>
      spawnSync('npm', ['run', '-s', 'cli', '--', ...args], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...stack.env },
        encoding: 'utf8',
      });
    cli('tenant:create', 'CLI3');
    const created = npm('token:create', '--tenant', 'CLI3', '--scopes', 'all');
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/^fct_[A-Za-z0-9_-]{43}\n$/);
    const [listed] = JSON.parse(cli('token:list', '--tenant', 'CLI3').stdout);
    expect([...listed.scopes].sort()).toEqual([...ALL_SCOPES].sort());

    const typo = npm('tokn:create', '--tenant', 'CLI3');
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('unknown command "tokn:create"; did you mean token:create?');
    expect(typo.stdout).toBe('');
  });

  it('demo:seed is idempotent and prints what exists', () => {
    const first = cli('demo:seed');
    expect(first.code).toBe(0);
    const second = cli('demo:seed');
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual(JSON.parse(first.stdout));
    expect(JSON.parse(first.stdout).tenant).toMatchObject({ code: 'DEMO' });
  });

  it('names the variable when the configuration is wrong', () => {
    const r = spawnSync(process.execPath, [main, 'migrate'], {
      env: { PATH: process.env.PATH ?? '', ...stack.env, REDIS_URL: 'http://nope', CARD_API_PORT: 'abc' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('REDIS_URL');
    expect(r.stderr).toContain('CARD_API_PORT');
  });
});
