import { ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { eventually } from '../http';
import { freePort } from '../net';
import { cleanupAtExit, killChild, run, signal } from './processes';

interface ClusterNode {
  port: number;
  process?: ChildProcess;
  output: string;
}

/** One line of CLUSTER NODES: who the node is, its role and the slots it serves. */
interface NodeView {
  port: number;
  flags: string[];
  slots: Array<[number, number]>;
}

/** Fails over within about two seconds of a master's death instead of the default fifteen. */
const NODE_TIMEOUT_MS = 1000;

/**
 * A Redis Cluster of one test file's own: three masters with one replica each, on free ports,
 * persisting nothing. The test may kill masters, which it must never do to a shared Redis.
 * `close()` is safe to call twice and also after a failed start.
 */
export class OwnedRedisCluster {
  private readonly nodes: ClusterNode[];
  private closed = false;
  private readonly forgetAtExit: () => void;

  private constructor(
    readonly dir: string,
    ports: number[],
    private readonly busPorts: number[],
  ) {
    this.nodes = ports.map((port) => ({ port, output: '' }));
    this.forgetAtExit = cleanupAtExit(() => {
      for (const node of this.nodes) if (node.process?.pid) signal(node.process.pid, 'SIGKILL');
      rmSync(this.dir, { recursive: true, force: true });
    });
  }

  static async start(): Promise<OwnedRedisCluster> {
    const ports: number[] = [];
    const busPorts: number[] = [];
    while (ports.length < 6) {
      const [port, bus] = [await freePort(), await freePort()];
      if (port !== bus && ![...ports, ...busPorts].some((p) => p === port || p === bus)) {
        ports.push(port);
        busPorts.push(bus);
      }
    }
    const cluster = new OwnedRedisCluster(
      await mkdtemp(join(tmpdir(), 'fincore-redis-cluster-')),
      ports,
      busPorts,
    );
    try {
      await cluster.startNodes();
      await run('redis-cli', [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ]);
      await cluster.untilHealthy();
      return cluster;
    } catch (error) {
      await cluster.close();
      throw error;
    }
  }

  /** The value of REDIS_CLUSTER_NODES: every node, as a client would list its seeds. */
  seedNodes(): string {
    return this.nodes.map(({ port }) => `127.0.0.1:${port}`).join(',');
  }

  /** The port of the master that serves the slot of `key` (its hash tag, when it has one). */
  async masterServing(key: string): Promise<number> {
    const port = this.alive()[0].port;
    const slot = Number(await this.command(port, 'cluster', 'keyslot', key));
    const master = (await this.view(port)).find(
      (node) => node.flags.includes('master') && node.slots.some(([from, to]) => from <= slot && slot <= to),
    );
    if (!master) throw new Error(`no master serves slot ${slot}`);
    return master.port;
  }

  /**
   * SIGKILLs the master on `port` and waits until one of its replicas serves its slots and every
   * surviving node says the cluster is ok again.
   */
  async killMaster(port: number): Promise<void> {
    const node = this.nodes.find((n) => n.port === port);
    if (!node?.process) throw new Error(`no node runs on ${port}`);
    const slots = (await this.view(port)).find((n) => n.port === port)?.slots ?? [];
    if (!slots.length) throw new Error(`the node on ${port} is no master`);
    await killChild(node.process);
    node.process = undefined;
    await eventually(
      async () => {
        for (const { port: alive } of this.alive()) {
          const newMaster = (await this.view(alive)).find(
            (n) =>
              n.flags.includes('master') &&
              !n.flags.includes('fail') &&
              n.slots.some(([f]) => f === slots[0][0]),
          );
          if (!newMaster || newMaster.port === port) return false;
        }
        return this.allOk();
      },
      { timeoutMs: 20_000, intervalMs: 100, what: `a replica to take over from the master on ${port}` },
    );
  }

  /** Kills every node and removes the directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(
      this.nodes.map(async (node) => {
        const child = node.process;
        node.process = undefined;
        if (child) await killChild(child);
      }),
    );
    await rm(this.dir, { recursive: true, force: true });
    this.forgetAtExit();
  }

  private alive(): ClusterNode[] {
    return this.nodes.filter((node) => node.process);
  }

  private async startNodes(): Promise<void> {
    this.nodes.forEach((node, i) => {
      const args = [
        ...['--port', String(node.port), '--bind', '127.0.0.1'],
        ...['--cluster-enabled', 'yes', '--cluster-port', String(this.busPorts[i])],
        ...['--cluster-config-file', join(this.dir, `nodes-${node.port}.conf`)],
        ...['--cluster-node-timeout', String(NODE_TIMEOUT_MS)],
        // Replicas copy their master at once rather than after the default five seconds' wait.
        ...['--repl-diskless-sync-delay', '0'],
        ...['--save', '', '--appendonly', 'no', '--dir', this.dir],
      ];
      const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      const keep = (d: Buffer) => (node.output = (node.output + d.toString()).slice(-4000));
      child.stdout!.on('data', keep);
      child.stderr!.on('data', keep);
      node.process = child;
    });
    await Promise.all(
      this.nodes.map((node) =>
        eventually(
          async () => {
            if (node.process?.exitCode !== null) throw new Error(`redis-server exited: ${node.output}`);
            return (await this.command(node.port, 'ping').catch(() => undefined)) === 'PONG';
          },
          { timeoutMs: 10_000, intervalMs: 50, what: `the owned cluster node on ${node.port} to answer` },
        ),
      ),
    );
  }

  /** Every node says ok and every replica holds a copy of its master: only such a replica fails over. */
  private async untilHealthy(): Promise<void> {
    await eventually(
      async () => {
        if (!(await this.allOk())) return false;
        const replication = await Promise.all(
          this.nodes.map(({ port }) => this.command(port, 'info', 'replication')),
        );
        const replicas = replication.filter((info) => /role:slave/.test(String(info)));
        return replicas.length === 3 && replicas.every((info) => /master_link_status:up/.test(String(info)));
      },
      {
        timeoutMs: 20_000,
        intervalMs: 100,
        what: 'cluster_state:ok on every node and every replica in sync',
      },
    );
  }

  private async allOk(): Promise<boolean> {
    const infos = await Promise.all(this.alive().map(({ port }) => this.command(port, 'cluster', 'info')));
    return infos.every(
      (info) => /cluster_state:ok/.test(String(info)) && /cluster_slots_ok:16384/.test(String(info)),
    );
  }

  private async view(port: number): Promise<NodeView[]> {
    const lines = String(await this.command(port, 'cluster', 'nodes'))
      .trim()
      .split('\n');
    return lines.map((line) => {
      const [, address, flags, , , , , , ...slots] = line.split(' ');
      return {
        port: Number(/:(\d+)@/.exec(address)?.[1]),
        flags: flags.split(','),
        slots: slots
          .filter((s) => !s.startsWith('['))
          .map((s) => {
            const [from, to = from] = s.split('-').map(Number);
            return [from, to] as [number, number];
          }),
      };
    });
  }

  /** One command on one node, on a connection that is not kept. */
  private async command(port: number, name: string, ...args: string[]): Promise<unknown> {
    const client = new Redis({
      host: '127.0.0.1',
      port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 2000,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await client.call(name, ...args);
    } finally {
      client.disconnect();
    }
  }
}
