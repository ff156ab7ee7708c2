import { ChildProcess, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@test/support/net';

export { freePort };

/** Root of the benchmark's own build (dist-bench/): the baselines are started from there. */
export const BENCH_ROOT = join(__dirname, '..', '..');
/** Root of the product build (dist/) beside it: the fincore apps are started from there. */
export const DIST_ROOT = join(BENCH_ROOT, '..', 'dist');

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    await sleep(100);
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`,
  );
}

/** A child Node process of the benchmark (a fincore app from dist, or a baseline). */
export class BenchProcess {
  private stderr = '';
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-8000);
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  get pid(): number {
    return this.child.pid!;
  }

  /**
   * Starts `node <entry>` (a path under one of the roots above) with exactly `env` (plus PATH); stdout goes to /dev/null (fincore logs
   * there at the configured level, as in production), stderr is kept for error messages.
   */
  static async start(
    name: string,
    entry: string,
    env: Record<string, string>,
    port: number,
    readyPath: string | null,
  ): Promise<BenchProcess> {
    // BENCH_CHILD_LOGS=<dir>: keep each process's stdout (its logs) in <dir>/<name>.log, for diagnosis.
    const logDir = process.env.BENCH_CHILD_LOGS;
    const stdout = logDir ? openSync(join(logDir, `${name}.log`), 'a') : 'ignore';
    // BENCH_CHILD_NODE_OPTIONS: NODE_OPTIONS of every process started, e.g. `--cpu-prof --cpu-prof-dir=<dir>`.
    const nodeOptions = process.env.BENCH_CHILD_NODE_OPTIONS;
    const child = spawn(process.execPath, [entry], {
      env: { PATH: process.env.PATH ?? '', ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}), ...env },
      stdio: ['ignore', stdout, 'pipe'],
    });
    const proc = new BenchProcess(name, child, `http://127.0.0.1:${port}`);
    try {
      await waitFor(
        async () => {
          if (child.exitCode !== null)
            throw new Error(`${name} exited with ${child.exitCode}: ${proc.stderr}`);
          if (readyPath === null) return true;
          const r = await fetch(`${proc.url}${readyPath}`).catch(() => undefined);
          return r?.status === 200 ? true : undefined;
        },
        30_000,
        `${name} to be ready`,
      );
    } catch (error) {
      // Never registered with its caller: a process that did not become ready is stopped here.
      await proc.stop().catch(() => undefined);
      throw error;
    }
    return proc;
  }

  /** Resident set size now and its peak since start (VmRSS / VmHWM of /proc/<pid>/status), in bytes. */
  memory(): { rss: number; peak: number } | null {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kib = (key: string) =>
        Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
      return { rss: kib('VmRSS'), peak: kib('VmHWM') };
    } catch {
      return null;
    }
  }

  errors(): string {
    return this.stderr;
  }

  /** SIGTERM, then SIGKILL after 10 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}
