import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { eventually } from './http';
import { freePort } from './net';

export const PROMETHEUS_DIR = join(__dirname, '..', '..', 'deploy', 'prometheus');

/**
 * Debian's `promtool` or `prometheus` (package `prometheus`, installed by .ci/run). Missing, the
 * test fails saying so: the rules are not checked by skipping them.
 */
export function prometheusBinary(name: 'promtool' | 'prometheus'): string {
  const found = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin']
    .map((dir) => join(dir, name))
    .find((path) => existsSync(path));
  if (!found)
    throw new Error(
      `${name} not found on PATH or in /usr/bin: install Debian's package (apt-get install prometheus)`,
    );
  return found;
}

/** Runs promtool with the arguments in deploy/prometheus; its exit code and output. */
export function promtool(...args: string[]): { status: number | null; output: string } {
  const r = spawnSync(prometheusBinary('promtool'), args, { cwd: PROMETHEUS_DIR, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

export interface ScrapeTarget {
  job: string;
  /** host:port */
  address: string;
}

/** A Prometheus server of the test's own, on a free port with storage in a temporary folder. */
export class OwnedPrometheus {
  private output = '';

  private constructor(
    private readonly process: ChildProcess,
    private readonly dir: string,
    readonly url: string,
  ) {
    process.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    process.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
  }

  /** Scrapes the targets every second and evaluates the given rule files as often. */
  static async start(targets: ScrapeTarget[], ruleFiles: string[]): Promise<OwnedPrometheus> {
    const dir = await mkdtemp(join(tmpdir(), 'fincore-prometheus-'));
    const config = [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      `rule_files: ${JSON.stringify(ruleFiles)}`,
      'scrape_configs:',
      ...targets.map((t) => `  - { job_name: ${t.job}, static_configs: [{ targets: ['${t.address}'] }] }`),
    ].join('\n');
    await writeFile(join(dir, 'prometheus.yml'), config);
    const port = await freePort();
    const child = spawn(
      prometheusBinary('prometheus'),
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const server = new OwnedPrometheus(child, dir, `http://127.0.0.1:${port}`);
    try {
      await eventually(
        async () => {
          if (child.exitCode !== null)
            throw new Error(`prometheus exited with ${child.exitCode}: ${server.output}`);
          return (await fetch(`${server.url}/-/ready`).catch(() => undefined))?.status === 200;
        },
        { timeoutMs: 30_000, intervalMs: 200, what: 'prometheus to be ready' },
      );
    } catch (error) {
      await server.close();
      throw error;
    }
    return server;
  }

  /** The result of an instant query. */
  async query(promql: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> {
    const r = await fetch(`${this.url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await r.json()) as { status: string; error?: string; data: { result: never[] } };
    if (body.status !== 'success') throw new Error(`query ${promql} failed: ${body.error}`);
    return body.data.result;
  }

  async get<T>(path: string): Promise<T> {
    return ((await (await fetch(`${this.url}${path}`)).json()) as { data: T }).data;
  }

  /** Stops the server and removes its storage. */
  async close(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      const exited = new Promise((resolve) => this.process.once('exit', resolve));
      this.process.kill('SIGTERM');
      await exited;
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}
