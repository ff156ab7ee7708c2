import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createDataSource, ensureDatabase, migrate } from '@fincore/database';
import {
  ALL_SCOPES,
  ApiTokenEntity,
  AppConfig,
  checkDependencies,
  ConfigError,
  DEMO_TENANT_CODE,
  loadConfig,
  TenantEntity,
  TenantRepository,
  TokenAdmin,
} from '@fincore/platform';
import { seedDemo } from '../apps/cli/src/commands';
import { DEMO_SEEDS } from '../apps/cli/src/demo-seeds';
import { createPortalLink } from '../apps/cli/src/portal-link';

/**
 * `npm start`: database up to date, demo data if the database is empty, the four processes
 * started and checked ready, their addresses and the demo token printed; the apps' logs go to
 * files. A stop signal is passed once to every process, which drain and exit; the launcher exits
 * 0 once all have.
 */
const APPS = [
  { name: 'credentials-api', port: (c: AppConfig) => c.CREDENTIALS_API_PORT },
  { name: 'card-api', port: (c: AppConfig) => c.CARD_API_PORT },
  { name: 'notification-api', port: (c: AppConfig) => c.NOTIFICATION_API_PORT },
  { name: 'notifier', port: (c: AppConfig) => c.NOTIFIER_PORT },
] as const;

const START_TOKEN_NAME = 'demo (npm start)';
/** The launcher's own files (demo token, logs); git-ignored. */
const STATE_DIR = process.env.FINCORE_STATE_DIR ?? join(__dirname, '..', '..', '.fincore');
const DEMO_TOKEN_FILE = join(STATE_DIR, 'demo-token');
const BULL_BOARD_PASSWORD_FILE = join(STATE_DIR, 'bull-board-password');
const LOG_DIR = join(STATE_DIR, 'logs');
const shown = (path: string) =>
  relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path);

const say = (line = '') => process.stdout.write(`${line}\n`);
const fail = (message: string): never => {
  process.stderr.write(`fincore: ${message}\n`);
  process.exit(1);
};

/** A value kept in the state directory, '' when there is none. */
function kept(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Saves `value` in the state directory, readable by its owner only. */
function keep(file: string, value: string): void {
  mkdirSync(STATE_DIR, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The Bull Board password stays the same across starts, like the demo token: a saved login keeps working. */
function bullBoardPassword(): string {
  const saved = kept(BULL_BOARD_PASSWORD_FILE);
  if (saved) return saved;
  const password = randomBytes(9).toString('base64url');
  keep(BULL_BOARD_PASSWORD_FILE, password);
  return password;
}

/**
 * The demo token stays the same across starts, so a shell's TOKEN keeps working: the saved one is
 * reused while it is valid. Otherwise (first start, another database, revoked) the start tokens
 * nobody can print any more are revoked and a new one is saved, readable by its owner only.
 */
async function demoToken(admin: TokenAdmin): Promise<string> {
  const saved = kept(DEMO_TOKEN_FILE);
  if ((await admin.findActiveToken(saved))?.tenantCode === DEMO_TENANT_CODE) return saved;
  for (const t of await admin.listTokens(DEMO_TENANT_CODE)) {
    if (t.name === START_TOKEN_NAME && !t.revokedAt) await admin.revokeToken(t.id);
  }
  const { token } = await admin.createToken(DEMO_TENANT_CODE, {
    name: START_TOKEN_NAME,
    scopes: [...ALL_SCOPES],
  });
  keep(DEMO_TOKEN_FILE, token);
  return token;
}

interface Prepared {
  token: string;
  seeded: boolean;
  /** A one-time link to the subscriber portal for the demo tenant. */
  portalLink: string | null;
}

async function prepareDatabase(config: AppConfig): Promise<Prepared> {
  if (await ensureDatabase(config.DATABASE_URL)) say('created database');
  const applied = await migrate(config);
  if (applied.length) say(`applied ${applied.length} migration(s)`);
  const ds = createDataSource(config, [
    TenantEntity,
    ApiTokenEntity,
    ...DEMO_SEEDS.flatMap((s) => s.entities),
  ]);
  await ds.initialize();
  try {
    const empty = await new TenantRepository(ds).isEmpty();
    if (empty) await seedDemo(ds);
    const admin = new TokenAdmin(ds);
    if (!(await admin.findTenant(DEMO_TENANT_CODE))) return { token: '', seeded: false, portalLink: null };
    const portalLink = await createPortalLink(ds, config, { tenant: DEMO_TENANT_CODE, readOnly: false });
    return { token: await demoToken(admin), seeded: empty, portalLink };
  } finally {
    await ds.destroy();
  }
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    const ok = await fetch(`${url}/health/ready`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not ready after ${timeoutMs / 1000} s`);
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    return fail(error instanceof ConfigError ? error.message : String(error));
  }
  let prepared: Prepared;
  try {
    prepared = await prepareDatabase(config);
    await checkDependencies(config);
  } catch (error) {
    // Say which dependency is down and where, rather than the driver's error alone.
    await checkDependencies(config).catch((dependency: Error) => fail(dependency.message));
    return fail(`cannot prepare the database: ${(error as Error).message}`);
  }
  const { token, seeded, portalLink } = prepared;

  // Demo defaults the operator can override: receivers on localhost allowed, Bull Board password.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? 'true',
    BULL_BOARD_PASSWORD: process.env.BULL_BOARD_PASSWORD ?? bullBoardPassword(),
  };
  // Own process groups: a terminal's Ctrl-C reaches the launcher only, which passes it on once.
  // The channel tells an app that the launcher is gone, should it die without passing anything on.
  mkdirSync(LOG_DIR, { recursive: true, mode: 0o700 });
  const children = APPS.map((app) => {
    const logFile = join(LOG_DIR, `${app.name}.log`);
    const log = openSync(logFile, 'a');
    const child = spawn(process.execPath, [join(__dirname, '..', 'apps', app.name, 'src', 'main.js')], {
      env,
      detached: true,
      stdio: ['ignore', log, 'pipe', 'ipc'],
    });
    // What an app writes to stderr (why it cannot start) is for the terminal as well as its log.
    child.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      writeSync(log, chunk);
    });
    return {
      ...app,
      child,
      logFile,
      url: `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${app.port(config)}`,
    };
  });

  let stopping = false;
  const stopAll = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: the apps drain and stop`);
    for (const { child } of children) if (child.exitCode === null) child.kill(signal);
  };
  // npm passes a signal on to the launcher as well: one Ctrl-C can arrive twice, so repeats are ignored.
  process.on('SIGINT', () => stopAll('SIGINT'));
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  process.on('SIGHUP', () => stopAll('SIGTERM'));

  const exits = children.map(
    ({ name, child, logFile }) =>
      new Promise<number>((resolve) =>
        child.once('exit', (code, signal) => {
          if (!stopping) {
            process.stderr.write(
              `fincore: ${name} stopped unexpectedly (${signal ?? code}; see ${shown(logFile)}); stopping the others\n`,
            );
            stopAll('SIGTERM');
          }
          resolve(code ?? 1);
        }),
      ),
  );

  const readiness = await Promise.allSettled(children.map(({ url, child }) => waitReady(url, child, 30_000)));
  const notReady = readiness.flatMap((r, i) =>
    r.status === 'rejected' ? [`${children[i].name} ${(r.reason as Error).message}`] : [],
  );
  if (notReady.length && !stopping) {
    process.stderr.write(`fincore: ${notReady.join('; ')}; stopping\n`);
    stopAll('SIGTERM');
    await Promise.all(exits);
    process.exit(1);
  }
  if (!stopping) {
    const [credentials, card, notification, notifier] = children;
    say('');
    say('fincore is running');
    say(`  credentials-api   ${credentials.url}   docs ${credentials.url}/docs`);
    say(`  card-api          ${card.url}   docs ${card.url}/docs`);
    say(`  notification-api  ${notification.url}   docs ${notification.url}/docs`);
    say(
      `  notifier          ${notifier.url}   Bull Board ${notifier.url}/admin/queues  (user ${config.BULL_BOARD_USERNAME}, password ${env.BULL_BOARD_PASSWORD})`,
    );
    say(`  metrics           /metrics on each; health /health/live and /health/ready`);
    say(`  logs              ${shown(LOG_DIR)}/<app>.log`);
    say('');
    say(
      `demo tenant ${DEMO_TENANT_CODE}${seeded ? ' (seeded now)' : ''}; demo token (all scopes, the same at every start, kept in ${shown(DEMO_TOKEN_FILE)}):`,
    );
    say(`  export TOKEN=${token}`);
    if (portalLink) {
      say(
        `subscriber portal for ${DEMO_TENANT_CODE} (one-time link, 10 minutes; another: npm run -s cli -- portal:link --tenant ${DEMO_TENANT_CODE}):`,
      );
      say(`  ${portalLink}`);
    }
    say('');
    say(`try:  curl -s -H "x-auth-token: $TOKEN" ${credentials.url}/api/v1/persons/demo-person-1`);
    say('stop: Ctrl-C');
  }
  const codes = await Promise.all(exits);
  const clean = codes.every((c) => c === 0);
  if (clean) say('fincore stopped');
  process.exit(clean ? 0 : 1);
}

void main();
