import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createDataSource, ensureDatabase, migrate } from '@fincore/database';
import {
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

/**
 * `npm start`: database up to date, demo data if the database is empty, the four processes
 * started and checked ready, their addresses and a fresh demo token printed. SIGINT/SIGTERM are
 * passed to every process, which drain and exit; the launcher exits 0 once all have.
 */
const APPS = [
  { name: 'credentials-api', port: (c: AppConfig) => c.CREDENTIALS_API_PORT },
  { name: 'card-api', port: (c: AppConfig) => c.CARD_API_PORT },
  { name: 'notification-api', port: (c: AppConfig) => c.NOTIFICATION_API_PORT },
  { name: 'notifier', port: (c: AppConfig) => c.NOTIFIER_PORT },
] as const;

const START_TOKEN_NAME = 'demo (npm start)';
const say = (line = '') => process.stdout.write(`${line}\n`);
const fail = (message: string): never => {
  process.stderr.write(`fincore: ${message}\n`);
  process.exit(1);
};

async function prepareDatabase(config: AppConfig): Promise<{ token: string; seeded: boolean }> {
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
    if (!(await admin.findTenant(DEMO_TENANT_CODE))) return { token: '', seeded: false };
    // One start token at a time: the previous one is revoked, a new one printed (tokens are stored hashed).
    for (const t of await admin.listTokens(DEMO_TENANT_CODE)) {
      if (t.name === START_TOKEN_NAME && !t.revokedAt) await admin.revokeToken(t.id);
    }
    const { token } = await admin.createToken(DEMO_TENANT_CODE, { name: START_TOKEN_NAME });
    return { token, seeded: empty };
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
  let prepared: { token: string; seeded: boolean };
  try {
    prepared = await prepareDatabase(config);
    await checkDependencies(config);
  } catch (error) {
    // Say which dependency is down and where, rather than the driver's error alone.
    await checkDependencies(config).catch((dependency: Error) => fail(dependency.message));
    return fail(`cannot prepare the database: ${(error as Error).message}`);
  }
  const { token, seeded } = prepared;

  // Demo defaults the operator can override: receivers on localhost allowed, Bull Board password.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? 'true',
    BULL_BOARD_PASSWORD: process.env.BULL_BOARD_PASSWORD ?? randomBytes(9).toString('base64url'),
  };
  const children = APPS.map((app) => {
    const child = spawn(process.execPath, [join(__dirname, '..', 'apps', app.name, 'src', 'main.js')], {
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    return {
      ...app,
      child,
      url: `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${app.port(config)}`,
    };
  });

  let stopping = false;
  const stopAll = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const { child } of children) if (child.exitCode === null) child.kill(signal);
  };
  process.once('SIGINT', () => stopAll('SIGINT'));
  process.once('SIGTERM', () => stopAll('SIGTERM'));

  const exits = children.map(
    ({ name, child }) =>
      new Promise<number>((resolve) =>
        child.once('exit', (code, signal) => {
          if (!stopping) {
            process.stderr.write(
              `fincore: ${name} stopped unexpectedly (${signal ?? code}); stopping the others\n`,
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
    say('');
    say(
      `demo tenant ${DEMO_TENANT_CODE}${seeded ? ' (seeded now)' : ''}; demo token (all scopes, replaces the previous start token):`,
    );
    say(`  ${token}`);
    say('');
    say(`try:  curl -s -H 'x-auth-token: ${token}' ${credentials.url}/api/v1/persons/demo-person-1`);
    say('stop: Ctrl-C');
  }
  const codes = await Promise.all(exits);
  process.exit(codes.every((c) => c === 0) ? 0 : 1);
}

void main();
