import { execFileSync } from 'node:child_process';
import { cleanupAtExit, run } from '../../support/owned/processes';

/** The links from a place to the services in this network namespace, one veth pair each. */
export type LinkName = 'postgres' | 'redis' | 'http';
const LINKS: readonly LinkName[] = ['postgres', 'redis', 'http'];

/** Namespaces and root-side interfaces carry the owning test process's pid, so leftovers are told apart. */
const NAMESPACE_PREFIX = 'fincore-part-';
const INTERFACE_PREFIX = 'fp-';

/**
 * A network namespace an app process runs in, linked to this one by a veth pair per service:
 * PostgreSQL, Redis, and HTTP (the test calls the app there, the app's webhooks reach the receiver).
 */
export interface Place {
  name: string;
  netns: string;
  /** The place's address on its HTTP link: an app there listens on it. */
  host: string;
  /** The root-side end of each link, the one a cut sets down. */
  links: Record<LinkName, string>;
}

const ip = (...args: string[]) => run('ip', args);

/** Networks this process made, so two worlds of one test file never share a name. */
let made = 0;

/**
 * Network namespaces of one test file's own (root only), for partitions that hang rather than
 * refuse: PostgreSQL, Redis and the receiver listen on addresses of their own in this namespace
 * (10.213.B.1, .2, .3 on a veth pair that stays up), and each place reaches each of them over its
 * own /30 link only. A cut sets the link's root-side end down: the place keeps its route and its
 * neighbour entry, its packets vanish, and TCP sees neither an answer nor a reset, as on a real
 * partition beyond a router. Nothing
 * leaves the machine. `close()` removes everything and is safe after any failure; leftovers of a
 * killed earlier run are removed at `create()`.
 */
export class PartitionNetwork {
  private readonly places: Place[] = [];
  private closed = false;
  private readonly forgetAtExit: () => void;

  private constructor(
    /** `<pid base 36>-<n>`: whose, and which of its networks. */
    private readonly tag: string,
    /** The third octet of this network's 10.213.B.0/24. */
    private readonly block: number,
  ) {
    this.forgetAtExit = cleanupAtExit(() => this.removeNow());
  }

  static async create(): Promise<PartitionNetwork> {
    await ip('netns', 'list').catch((error: Error) => {
      throw new Error(`partition scenarios need root and iproute2's ip netns: ${error.message}`);
    });
    await removeLeftovers();
    const network = new PartitionNetwork(
      `${process.pid.toString(36)}-${(made++).toString(36)}`,
      await freeBlock(),
    );
    try {
      const hub = network.interfaceName('hub');
      await ip('link', 'add', hub, 'type', 'veth', 'peer', 'name', network.interfaceName('hb'));
      await ip('link', 'set', network.interfaceName('hb'), 'up');
      await ip('link', 'set', hub, 'up');
      for (const host of [network.postgresHost, network.redisHost, network.receiverHost])
        await ip('addr', 'add', `${host}/32`, 'dev', hub);
      return network;
    } catch (error) {
      await network.close();
      throw error;
    }
  }

  get postgresHost(): string {
    return this.address(1);
  }

  /** Where PostgreSQL listens, and the addresses its clients in the places come from. */
  get postgresService(): { host: string; clients: string } {
    return { host: this.postgresHost, clients: `10.213.${this.block}.0/24` };
  }

  get redisHost(): string {
    return this.address(2);
  }

  get receiverHost(): string {
    return this.address(3);
  }

  /** A new namespace `name` with its three links up. */
  async place(name: string): Promise<Place> {
    const index = this.places.length;
    const netns = `${NAMESPACE_PREFIX}${this.tag}-${index}`;
    const place: Place = {
      name,
      netns,
      host: this.address(4 * (1 + LINKS.length * index + LINKS.indexOf('http')) + 2),
      links: Object.fromEntries(
        LINKS.map((link) => [link, this.interfaceName(`${index.toString(36)}${link[0]}`)]),
      ) as Record<LinkName, string>,
    };
    this.places.push(place);
    await ip('netns', 'add', netns);
    await ip('-n', netns, 'link', 'set', 'lo', 'up');
    const reaches: Record<LinkName, string> = {
      postgres: this.postgresHost,
      redis: this.redisHost,
      http: this.receiverHost,
    };
    for (const [i, link] of LINKS.entries()) {
      const base = 4 * (1 + LINKS.length * index + i);
      const [rootSide, placeSide] = [this.address(base + 1), this.address(base + 2)];
      await ip('link', 'add', place.links[link], 'type', 'veth', 'peer', 'name', link, 'netns', netns);
      await ip('addr', 'add', `${rootSide}/30`, 'dev', place.links[link]);
      await ip('link', 'set', place.links[link], 'up');
      await ip('-n', netns, 'addr', 'add', `${placeSide}/30`, 'dev', link);
      await ip('-n', netns, 'link', 'set', link, 'up');
      await ip('-n', netns, 'route', 'add', `${reaches[link]}/32`, 'via', rootSide, 'dev', link);
      // Known for good: on a cut the place's packets leave and vanish, where a failed address
      // lookup would answer its connects at once with EHOSTUNREACH.
      const [{ address: mac }] = JSON.parse(await ip('-j', 'link', 'show', place.links[link])) as [
        { address: string },
      ];
      await ip('-n', netns, 'neigh', 'replace', rootSide, 'lladdr', mac, 'dev', link, 'nud', 'permanent');
    }
    return place;
  }

  /** Sets the root-side ends of `links` down: the place's packets over them are dropped unanswered. */
  async cut(place: Place, links: readonly LinkName[] = LINKS): Promise<void> {
    for (const link of links) await ip('link', 'set', place.links[link], 'down');
  }

  /** Sets every link of the place up again; connections the cut left hanging go on where they stopped. */
  async restore(place: Place): Promise<void> {
    for (const link of LINKS) await ip('link', 'set', place.links[link], 'up');
  }

  /**
   * Deletes the links, the namespaces and the service addresses. Each link is deleted from this
   * end: a namespace outlives its name while a socket of it lingers, and its links with it.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const place of this.places) {
      for (const end of Object.values(place.links)) await ip('link', 'delete', end).catch(() => undefined);
      await ip('netns', 'delete', place.netns).catch(() => undefined);
    }
    await ip('link', 'delete', this.interfaceName('hub')).catch(() => undefined);
    this.forgetAtExit();
  }

  private address(host: number): string {
    return `10.213.${this.block}.${host}`;
  }

  /** At most 15 characters: `fp-<pid base 36>-<n>-<suffix>`. */
  private interfaceName(suffix: string): string {
    return `${INTERFACE_PREFIX}${this.tag}-${suffix}`;
  }

  /** What `close()` does, synchronously, for a test process that exits without closing. */
  private removeNow(): void {
    for (const place of this.places) {
      for (const end of Object.values(place.links)) execQuietly('link', 'delete', end);
      execQuietly('netns', 'delete', place.netns);
    }
    execQuietly('link', 'delete', this.interfaceName('hub'));
  }
}

function execQuietly(...args: string[]): void {
  try {
    execFileSync('ip', args, { stdio: 'ignore' });
  } catch {
    // already gone
  }
}

/** Whether the process whose pid (base 36) names a namespace or interface is gone. */
function ownerGone(tag: string): boolean {
  try {
    process.kill(parseInt(tag, 36), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Namespaces and interfaces of earlier runs whose test process died before closing them. */
async function removeLeftovers(): Promise<void> {
  const namespaces = (await ip('netns', 'list')).split('\n').map((line) => line.split(' ')[0]);
  for (const netns of namespaces) {
    const tag = netns.startsWith(NAMESPACE_PREFIX) && netns.slice(NAMESPACE_PREFIX.length).split('-')[0];
    if (tag && ownerGone(tag)) await ip('netns', 'delete', netns).catch(() => undefined);
  }
  const interfaces = (await ip('-o', 'link', 'show')).split('\n').map((line) => line.split(': ')[1] ?? '');
  for (const name of interfaces.map((n) => n.split('@')[0])) {
    const tag = name.startsWith(INTERFACE_PREFIX) && name.slice(INTERFACE_PREFIX.length).split('-')[0];
    if (tag && ownerGone(tag)) await ip('link', 'delete', name).catch(() => undefined);
  }
}

/** A third octet no address of this namespace uses in 10.213.0.0/16. */
async function freeBlock(): Promise<number> {
  const used = new Set(
    [...(await ip('-4', '-o', 'addr', 'show')).matchAll(/inet 10\.213\.(\d+)\./g)].map((m) => Number(m[1])),
  );
  const block = Array.from({ length: 250 }, (_, i) => i + 1).find((b) => !used.has(b));
  if (block === undefined) throw new Error('no free 10.213.B.0/24 block for the partition network');
  return block;
}
