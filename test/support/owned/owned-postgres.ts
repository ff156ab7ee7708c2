import { appendFile, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../net';
import { createMigratedTemplate } from '../template';
import { childrenOf, cleanupAtExit, run, signal } from './processes';

const BIN = '/usr/lib/postgresql/15/bin';
const TEMPLATE = 'fincore_template';

/** PostgreSQL refuses to run as root: every server command runs as the postgres user. */
const asPostgres = (command: string, args: string[]) =>
  run('runuser', ['-u', 'postgres', '--', `${BIN}/${command}`, ...args]);

/**
 * A PostgreSQL server of one test file's own, on a free port in a temp dir: the file may restart,
 * stop and freeze it, which it must never do to the machine's shared server. `close()` removes
 * everything; it is safe to call twice and also after a failed start.
 */
export class OwnedPostgres {
  private frozen: number[] = [];
  private template?: Promise<string>;
  private closed = false;
  private readonly forgetAtExit: () => void;

  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly settings: Record<string, string>,
    /** The address clients reach it at; it listens on 127.0.0.1 too. */
    readonly host: string,
  ) {
    this.forgetAtExit = cleanupAtExit(() => this.killNow());
  }

  private get dataDir(): string {
    return join(this.dir, 'data');
  }

  /**
   * `settings`: server settings beyond the defaults, kept across restarts. `network`: an address of
   * this machine to listen on besides 127.0.0.1, which `url()` then names, and the clients (CIDR)
   * trusted there.
   */
  static async start(
    settings: Record<string, string> = {},
    network?: { host: string; clients: string },
  ): Promise<OwnedPostgres> {
    const dir = await mkdtemp(join(tmpdir(), 'fincore-pg-'));
    const owner = await postgresUser();
    await chown(dir, owner.uid, owner.gid);
    const server = new OwnedPostgres(dir, await freePort(), settings, network?.host ?? '127.0.0.1');
    try {
      await asPostgres('initdb', ['-D', server.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
      if (network)
        await appendFile(join(server.dataDir, 'pg_hba.conf'), `host all all ${network.clients} trust\n`);
      await server.startServer();
      return server;
    } catch (error) {
      await server.close();
      throw error;
    }
  }

  /** URL of a database on this server (the maintenance database `postgres` by default). */
  url(database = 'postgres'): string {
    return `postgres://postgres@${this.host}:${this.port}/${database}`;
  }

  /** Name of a migrated database to clone stacks from, made on first use. */
  async migratedTemplate(): Promise<string> {
    this.template ??= createMigratedTemplate(this.url(), TEMPLATE).then(() => TEMPLATE);
    return this.template;
  }

  /**
   * Stops (fast: sessions end with 57P01 admin_shutdown) and starts again on the same port;
   * also starts a stopped server.
   */
  async restart(): Promise<void> {
    await this.stop();
    await this.startServer();
  }

  /** Stops the server; connecting is refused until `restart()`. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    this.thaw();
    if (await this.isRunning()) await asPostgres('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', 'stop']);
  }

  /**
   * SIGSTOP to the postmaster and every backend: connections stay open and answer nothing, as
   * with a hung host. The postmaster first, so that it forks no new backend meanwhile.
   */
  async freeze(): Promise<void> {
    const postmaster = await this.postmasterPid();
    if (!postmaster) throw new Error('PostgreSQL is not running');
    signal(postmaster, 'SIGSTOP');
    const children = await childrenOf(postmaster);
    for (const pid of children) signal(pid, 'SIGSTOP');
    this.frozen = [postmaster, ...children];
  }

  /** SIGCONT to every process `freeze()` stopped. */
  thaw(): void {
    for (const pid of [...this.frozen].reverse()) signal(pid, 'SIGCONT');
    this.frozen = [];
  }

  /** Thaws, stops at once and removes the data directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.thaw();
    await asPostgres('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']).catch(async () => {
      const pid = await this.postmasterPid();
      if (pid) signal(pid, 'SIGKILL');
    });
    await rm(this.dir, { recursive: true, force: true });
    this.forgetAtExit();
  }

  private async startServer(): Promise<void> {
    const settings = Object.entries(this.settings).map(([name, value]) => ` -c ${name}=${value}`);
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=${[...new Set(['127.0.0.1', this.host])].join(',')} -c fsync=off -c full_page_writes=off${settings.join('')}`;
    await asPostgres('pg_ctl', [
      '-D',
      this.dataDir,
      '-o',
      options,
      '-l',
      join(this.dir, 'server.log'),
      '-w',
      'start',
    ]);
  }

  private async isRunning(): Promise<boolean> {
    return asPostgres('pg_ctl', ['-D', this.dataDir, 'status']).then(
      () => true,
      () => false,
    );
  }

  /** The first line of postmaster.pid; undefined when the server is not running. */
  private async postmasterPid(): Promise<number | undefined> {
    const content = await readFile(join(this.dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
    const pid = Number(content.split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  }

  private killNow(): void {
    for (const pid of this.frozen) signal(pid, 'SIGCONT');
    try {
      const pid = Number(readFileSync(join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0) signal(pid, 'SIGQUIT'); // immediate shutdown; backends follow
    } catch {
      // not running
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}
