import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './http';
import { freePort } from './net';

export const LAUNCHED_APPS = ['credentials-api', 'card-api', 'notification-api', 'notifier'] as const;

const root = join(__dirname, '..', '..');

export interface Launch {
  process: ChildProcess;
  ports: Record<string, number>;
  /** What the launcher printed (stdout and stderr) so far. */
  output(): string;
  /** Resolves once the banner is printed. */
  ready(): Promise<void>;
  exited: Promise<number | null>;
  /** An app's log file in the launch's state directory. */
  log(app: (typeof LAUNCHED_APPS)[number]): string;
}

/** A state directory (demo token, logs) of its own, so tests never touch the checkout's. */
export function stateDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'fincore-state-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Starts the built launcher on free ports (or those given), either directly or as `npm start` runs it (npm, its
 * shell, the launcher), in a process group of its own so the test can signal it as a terminal does.
 */
export async function launch(
  env: Record<string, string>,
  options: { state: string; viaNpm?: boolean; ports?: Record<string, number> },
): Promise<Launch> {
  // A restart passes the first launch's ports, as a user's second `npm start` uses the same.
  const ports = options.ports ?? {
    CREDENTIALS_API_PORT: await freePort(),
    CARD_API_PORT: await freePort(),
    NOTIFICATION_API_PORT: await freePort(),
    NOTIFIER_PORT: await freePort(),
  };
  const fullEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    ...env,
    FINCORE_STATE_DIR: options.state,
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  };
  const child = options.viaNpm
    ? spawn('npm', ['start', '--prefix', npmPackageWithoutBuild(options.state)], {
        env: fullEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      })
    : spawn(process.execPath, [join(root, 'dist', 'scripts', 'start.js')], {
        env: fullEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    process: child,
    ports,
    output: () => output,
    exited,
    ready: async () => {
      await eventually(() => output.includes('fincore is running'), {
        timeoutMs: 45_000,
        intervalMs: 200,
        what: `the launcher to report ready:\n${output}`,
      });
    },
    log: (app) => readFileSync(join(options.state, 'logs', `${app}.log`), 'utf8'),
  };
}

/**
 * A package whose `start` script is the project's own with the build step taken out (the tests
 * run against the build they already have), so npm and its shell handle signals as for users.
 */
function npmPackageWithoutBuild(state: string): string {
  const dir = join(state, 'npm-package');
  mkdirSync(dir, { recursive: true });
  checkoutScripts(dir, { start: (script) => withoutBuild(script) });
  return dir;
}

function withoutBuild(start: string): string {
  const build = 'npm run build --silent && ';
  if (!start.includes(build)) throw new Error(`unexpected start script: ${start}`);
  return start.replace(build, '');
}

/**
 * Writes a package.json into `dir` holding the checkout's scripts named (each through its
 * transform), with their paths into the checkout made absolute: `npm run` there acts as in the
 * checkout, against its build.
 */
export function checkoutScripts(dir: string, scripts: Record<string, (script: string) => string>): void {
  const own = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  const written = Object.fromEntries(
    Object.entries(scripts).map(([name, transform]) => [
      name,
      transform(own[name]).replace(/(^|\s)(scripts|dist)\//g, `$1${root}/$2/`),
    ]),
  );
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'fincore-checkout', version: '0.0.0', private: true, scripts: written }),
  );
}
