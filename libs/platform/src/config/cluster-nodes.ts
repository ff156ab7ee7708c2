export interface RedisNode {
  host: string;
  port: number;
}

/** `host:port`, the host a name, an IPv4 address or a bracketed IPv6 address. */
const HOST_PORT = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/;

/**
 * The seed nodes of REDIS_CLUSTER_NODES (`host:port,host:port`, spaces around commas allowed).
 * Throws naming the first entry that is not a host and a port 1-65535; an empty list is refused.
 */
export function parseRedisClusterNodes(value: string): RedisNode[] {
  const entries = value.split(',').map((entry) => entry.trim());
  return entries.map((entry) => {
    const match = HOST_PORT.exec(entry);
    const port = Number(match?.[3]);
    if (!match || port < 1 || port > 65535) throw new Error(`"${entry}" is not host:port`);
    return { host: match[1] ?? match[2], port };
  });
}

/** The nodes as they were given, for messages: `a:7000,b:7001`. */
export function describeRedisNodes(nodes: readonly RedisNode[]): string {
  return nodes.map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`).join(',');
}
