import { ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { eventually } from '../http';
import { freePort } from '../net';
import { cleanupAtExit, killChild, signal } from './processes';

/**
 * A redis-server of one test file's own, on a free port, persisting nothing: the file may restart
 * (which empties it), freeze and flush it, which it must never do to the machine's shared Redis.
 * `close()` is safe to call twice and also after a failed start.
 */
export class OwnedRedis {
  private process?: ChildProcess;
  private frozen = false;
  private closed = false;
  private output = '';
  private readonly forgetAtExit: () => void;

  private constructor(
    readonly dir: string,
    readonly port: number,
    /** The address clients reach it at; it listens on 127.0.0.1 too. */
    readonly host: string,
  ) {
    this.forgetAtExit = cleanupAtExit(() => {
      if (this.process?.pid) {
        signal(this.process.pid, 'SIGCONT');
        signal(this.process.pid, 'SIGKILL');
      }
      rmSync(this.dir, { recursive: true, force: true });
    });
  }

  /** `host`: an address of this machine to listen on besides 127.0.0.1, which `url()` then names. */
  static async start(host = '127.0.0.1'): Promise<OwnedRedis> {
    const dir = await mkdtemp(join(tmpdir(), 'fincore-redis-'));
    const server = new OwnedRedis(dir, await freePort(), host);
    try {
      await server.startServer();
      return server;
    } catch (error) {
      await server.close();
      throw error;
    }
  }

  url(): string {
    return `redis://${this.host}:${this.port}`;
  }

  /** Stops and starts again on the same port, empty. */
  async restart(): Promise<void> {
    await this.stop();
    await this.startServer();
  }

  /** Stops the server; connecting is refused until `restart()`. */
  async stop(): Promise<void> {
    this.thaw();
    const child = this.process;
    this.process = undefined;
    if (child) await killChild(child);
  }

  /** SIGSTOP: connections stay open and nothing answers. */
  freeze(): void {
    if (!this.process?.pid) throw new Error('Redis is not running');
    signal(this.process.pid, 'SIGSTOP');
    this.frozen = true;
  }

  thaw(): void {
    if (this.frozen && this.process?.pid) signal(this.process.pid, 'SIGCONT');
    this.frozen = false;
  }

  /** Empties the server; answers how many keys it held just before, in the same transaction. */
  async flushAll(): Promise<number> {
    const client = new Redis(this.url(), { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await client.connect();
      const [[, keys]] = (await client.multi().dbsize().flushall().exec()) as [[null, number], unknown];
      return keys;
    } finally {
      client.disconnect();
    }
  }

  /** Thaws, kills and removes the directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
    this.forgetAtExit();
  }

  private async startServer(): Promise<void> {
    const bind = [...new Set(['127.0.0.1', this.host])];
    const args = ['--port', String(this.port), '--bind', ...bind, '--save', '', '--appendonly', 'no'];
    // Clients on the other address come from this machine's own network namespaces.
    if (bind.length > 1) args.push('--protected-mode', 'no');
    const child = spawn('redis-server', [...args, '--dir', this.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d: Buffer) => (this.output = (this.output + d.toString()).slice(-4000)));
    child.stderr!.on('data', (d: Buffer) => (this.output = (this.output + d.toString()).slice(-4000)));
    this.process = child;
    const probe = new Redis(this.url(), {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on('error', () => undefined);
    try {
      await eventually(
        async () => {
          if (child.exitCode !== null) throw new Error(`redis-server exited: ${this.output}`);
          if (probe.status !== 'ready') await probe.connect().catch(() => undefined);
          return (await probe.ping().catch(() => undefined)) === 'PONG';
        },
        { timeoutMs: 10_000, intervalMs: 50, what: 'the owned redis-server to answer' },
      );
    } finally {
      probe.disconnect();
    }
  }
}
