import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import { loadConfig } from '@fincore/platform';
import { SecretBox } from '@fincore/webhooks';
import composeSpec from './support/compose-spec/compose-spec.json';

/**
 * The container files as a new user meets them, checked without a Docker engine: valid Compose
 * files (the official schema, vendored), and our own rules on secrets, demo data and start order.
 */
const root = join(__dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  profiles?: string[];
  command?: string[];
  entrypoint?: string[];
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string>;
  ports?: string[];
}
interface ComposeFile {
  services: Record<string, Service>;
}

const parse = (file: string) => load(read(file), { schema: CORE_SCHEMA.withTags(mergeTag) }) as ComposeFile;
const base = parse('docker-compose.yml');
const demo = parse('docker-compose.demo.yml');
const FILES = { 'docker-compose.yml': base, 'docker-compose.demo.yml': demo };

const SECRET = /PASSWORD|SECRET|TOKEN|_KEY$/;
const references = (text: string) =>
  [...text.matchAll(/\$\{([A-Z0-9_]+)(?:(:?[?-])([^}]*))?\}/g)].map(([, name, operator, rest]) => ({
    name,
    operator: operator ?? '',
    rest: rest ?? '',
  }));
const required = [
  ...new Set(
    references(read('docker-compose.yml'))
      .filter((r) => r.operator === ':?')
      .map((r) => r.name),
  ),
];

/** The environment compose hands a service, with `${…}` replaced from `env` as compose does. */
function interpolated(service: Service, env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([key, value]) => [
      key,
      String(value).replace(
        /\$\{([A-Z0-9_]+)(?::?([?-])([^}]*))?\}/g,
        (_, name: string, op?: string, rest?: string) => {
          if (env[name]) return env[name];
          if (op === '-') return rest ?? '';
          throw new Error(`${name} is required`);
        },
      ),
    ]),
  );
}

/** Runs scripts/docker-env.sh in a copy of the project's layout, as a user would from the root. */
function runEnvScript(dir: string): string {
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  copyFileSync(join(root, 'scripts', 'docker-env.sh'), join(dir, 'scripts', 'docker-env.sh'));
  return execFileSync('sh', [join(dir, 'scripts', 'docker-env.sh')], { encoding: 'utf8', stdio: 'pipe' });
}
const parseEnv = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((l) => /^[A-Z0-9_]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

describe('docker compose files', () => {
  it.each(Object.entries(FILES))('%s is a valid Compose file', (_file, content) => {
    const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    const validate = ajv.compile(composeSpec);
    expect(validate(content) ? [] : validate.errors).toEqual([]);
  });

  it('takes every secret from .env, required, never with a default', () => {
    expect(required).toEqual(
      expect.arrayContaining(['WEBHOOK_SECRET_KEY', 'POSTGRES_PASSWORD', 'BULL_BOARD_PASSWORD']),
    );
    for (const text of [read('docker-compose.yml'), read('docker-compose.demo.yml')]) {
      for (const r of references(text).filter((ref) => SECRET.test(ref.name))) {
        expect({ ...r, rest: undefined }).toEqual({ name: r.name, operator: ':?', rest: undefined });
      }
    }
    const environment = Object.entries(base.services).flatMap(([service, { environment }]) =>
      Object.entries(environment ?? {}).map(([key, value]) => ({ service, key, value })),
    );
    for (const variable of environment.filter(({ key }) => SECRET.test(key)))
      expect(variable).toEqual({ ...variable, value: expect.stringMatching(/^\$\{[A-Z0-9_]+:\?[^}]*\}$/) });
    for (const variable of environment.filter(({ key }) => key === 'DATABASE_URL'))
      expect(variable).toEqual({
        ...variable,
        value: expect.stringMatching(/^postgres:\/\/fincore:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:/),
      });
  });

  it('.env.example names every required variable, empty, so compose refuses it until filled in', () => {
    const example = parseEnv(read('.env.example'));
    expect(Object.keys(example).sort()).toEqual([...required].sort());
    expect(Object.values(example).every((v) => v === '')).toBe(true);
  });

  it('keeps .env out of git and out of the image', () => {
    expect(read('.gitignore').split('\n')).toContain('.env');
    expect(read('.dockerignore').split('\n')).toContain('.env');
  });

  it('migrate only migrates; demo data only with the demo file', () => {
    expect(base.services.migrate.command).toEqual(['node', 'dist/apps/cli/src/main.js', 'migrate']);
    expect(read('docker-compose.yml')).not.toContain('demo:seed');
    expect(demo.services.migrate.command?.join(' ')).toMatch(/ migrate && .* demo:seed$/);
  });

  it('starts every app only after migrate has completed, and publishes it on the loopback only', () => {
    const apps = Object.entries(base.services).filter(
      ([name, s]) => s.image === 'fincore:local' && name !== 'migrate' && !s.profiles,
    );
    expect(apps.map(([name]) => name).sort()).toEqual([
      'card-api',
      'credentials-api',
      'notification-api',
      'notifier',
    ]);
    for (const [name, service] of apps) {
      expect({ name, migrate: service.depends_on?.migrate }).toEqual({
        name,
        migrate: { condition: 'service_completed_successfully' },
      });
      expect(service.ports?.every((p) => p.startsWith('127.0.0.1:'))).toBe(true);
    }
    expect(base.services.migrate.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
  });

  it('refuses private-network receivers unless the demo file allows them for its receiver', () => {
    const everywhere = Object.values(base.services).map((s) => s.environment?.WEBHOOK_ALLOW_PRIVATE_NETWORKS);
    expect(new Set(everywhere.filter(Boolean))).toEqual(
      new Set(['${WEBHOOK_ALLOW_PRIVATE_NETWORKS:-false}']),
    );
    expect(demo.services['notification-api'].environment?.WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBe('true');
    expect(demo.services.notifier.environment?.WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBe('true');
    expect(demo.services.receiver.command?.join(' ')).toContain('.listen(8080)');
  });

  it('has an on-demand cli service whose arguments are the command', () => {
    expect(base.services.cli.profiles).toEqual(['cli']);
    expect(base.services.cli.entrypoint).toEqual(['node', 'dist/apps/cli/src/main.js']);
  });
});

describe("README's Docker commands", () => {
  const section = read('README.md').split('### With Docker instead')[1].split('\n## ')[0];

  it('name only services, files and ports that exist', () => {
    const services = { ...base.services, ...demo.services };
    const named = [...section.matchAll(/docker compose (?:run --rm -T|logs -f) ([a-z-]+)/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(Object.keys(services)).toContain(name);
    expect(section).toContain('sh scripts/docker-env.sh');
    expect(section).toContain('COMPOSE_FILE=docker-compose.yml:docker-compose.demo.yml');
    const port = /http:\/\/receiver:(\d+)\//.exec(section)?.[1];
    expect(demo.services.receiver.command?.join(' ')).toContain(`.listen(${port})`);
  });
});

describe('scripts/docker-env.sh', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'fincore-env-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every required variable once, with values the apps accept, readable by the owner only', () => {
    runEnvScript(dir);
    const env = parseEnv(readFileSync(join(dir, '.env'), 'utf8'));
    expect(Object.keys(env).sort()).toEqual([...required].sort());
    expect(statSync(join(dir, '.env')).mode & 0o077).toBe(0);
    expect(() => new SecretBox(env.WEBHOOK_SECRET_KEY)).not.toThrow();
    expect(Buffer.from(env.WEBHOOK_SECRET_KEY, 'base64')).toHaveLength(32);
    for (const app of ['credentials-api', 'card-api', 'notification-api', 'notifier', 'migrate', 'cli']) {
      const config = loadConfig(interpolated(base.services[app], env));
      expect(config).toMatchObject({
        NODE_ENV: 'production',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: false,
        BULL_BOARD_PASSWORD: env.BULL_BOARD_PASSWORD,
      });
    }
  });

  it('warns when the shell has a secret that compose would take instead of .env', () => {
    mkdirSync(join(dir, 'scripts'));
    copyFileSync(join(root, 'scripts', 'docker-env.sh'), join(dir, 'scripts', 'docker-env.sh'));
    const r = spawnSync('sh', [join(dir, 'scripts', 'docker-env.sh')], {
      env: { PATH: process.env.PATH ?? '', WEBHOOK_SECRET_KEY: 'from-the-shell' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('WEBHOOK_SECRET_KEY is set in this shell');
  });

  it('never replaces an existing .env, whose key the stored webhook secrets need', () => {
    runEnvScript(dir);
    const first = readFileSync(join(dir, '.env'), 'utf8');
    runEnvScript(dir);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe(first);

    const other = mkdtempSync(join(tmpdir(), 'fincore-env-'));
    try {
      writeFileSync(join(other, '.env'), 'WEBHOOK_SECRET_KEY=mine\n');
      runEnvScript(other);
      expect(readFileSync(join(other, '.env'), 'utf8')).toBe('WEBHOOK_SECRET_KEY=mine\n');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
