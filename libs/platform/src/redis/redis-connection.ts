import Redis, { Cluster } from 'ioredis';
import type { AppConfig } from '../config/config';
import { describeRedisNodes, parseRedisClusterNodes } from '../config/cluster-nodes';

/** A connection to the configured Redis: one server, or a Redis Cluster when REDIS_CLUSTER_NODES is set. */
export type RedisClient = Redis | Cluster;

export type RedisSettings = Pick<AppConfig, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'>;

/** How one connection behaves; the same on a single server and on a cluster. */
export interface RedisClientOptions {
  /**
   * How often a command is retried across reconnects before it fails; null waits for Redis however
   * long it takes, which BullMQ requires of its connections.
   */
  maxRetriesPerRequest: number | null;
  /** Longest wait for the answer to one command (a frozen server keeps its socket open). */
  commandTimeout?: number;
  /** Longest silence while a command is outstanding before the socket is dropped and reconnected. */
  socketTimeout?: number;
  connectTimeout?: number;
  /** Commands issued while disconnected wait for the connection (true) or fail at once. */
  enableOfflineQueue?: boolean;
  /** Connect on `connect()` rather than at once. */
  lazyConnect?: boolean;
  /** false: one attempt to connect, no reconnecting (start-up checks, one-shot commands). */
  reconnect?: boolean;
}

/**
 * The one place a Redis connection is made. On a cluster the command options apply to every node
 * connection; REDIS_URL then gives only the user, password and TLS.
 */
export function createRedisClient(settings: RedisSettings, options: RedisClientOptions): RedisClient {
  const { reconnect = true, lazyConnect = false, enableOfflineQueue = true, ...perConnection } = options;
  const giveUp = () => null;
  if (settings.REDIS_CLUSTER_NODES) {
    return new Cluster(parseRedisClusterNodes(settings.REDIS_CLUSTER_NODES), {
      lazyConnect,
      enableOfflineQueue,
      ...(reconnect ? {} : { clusterRetryStrategy: giveUp }),
      redisOptions: { ...credentialsOf(settings.REDIS_URL), ...perConnection },
    });
  }
  return new Redis(settings.REDIS_URL, {
    ...perConnection,
    lazyConnect,
    enableOfflineQueue,
    ...(reconnect ? {} : { retryStrategy: giveUp }),
  });
}

/**
 * A queue connection that hears nothing for this long while it waits for an answer is taken for
 * dead and reconnected. Across a partition no reset comes: TCP retransmits with a backoff that
 * doubles up to two minutes, so without this a connection stays silent long after the network is
 * back. Above the 10 s a worker's BZPOPMIN and QueueEvents' XREAD block at most.
 */
export const QUEUE_SOCKET_TIMEOUT_MS = 15_000;

/** Connection options of one server, in the shape BullMQ takes them. */
// A type, not an interface: BullMQ's option type has an index signature, which only types satisfy.
export type QueueServerOptions = {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: object;
  maxRetriesPerRequest: null;
  socketTimeout: number;
};

/**
 * What BullMQ queues and workers connect with. On one server: connection options, so each queue
 * and worker opens its own connections. On a cluster BullMQ needs a Cluster instance, shared by the
 * queues and workers of the process (workers duplicate it for their blocking reads): the caller
 * closes it at shutdown. Either way commands wait out an outage, as BullMQ workers require, and a
 * connection silent past QUEUE_SOCKET_TIMEOUT_MS is replaced.
 */
export function createQueueConnection(settings: RedisSettings): QueueServerOptions | Cluster {
  if (settings.REDIS_CLUSTER_NODES) {
    return createRedisClient(settings, {
      maxRetriesPerRequest: null,
      socketTimeout: QUEUE_SOCKET_TIMEOUT_MS,
    }) as Cluster;
  }
  const u = new URL(settings.REDIS_URL);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    ...credentialsOf(settings.REDIS_URL),
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    maxRetriesPerRequest: null,
    socketTimeout: QUEUE_SOCKET_TIMEOUT_MS,
  };
}

/** Where the configured Redis is and which setting says so, for messages: `at 127.0.0.1:6379 (REDIS_URL)`. */
export function redisLocation(settings: RedisSettings): string {
  if (settings.REDIS_CLUSTER_NODES) {
    const nodes = describeRedisNodes(parseRedisClusterNodes(settings.REDIS_CLUSTER_NODES));
    return `at the cluster nodes ${nodes} (REDIS_CLUSTER_NODES)`;
  }
  const u = new URL(settings.REDIS_URL);
  return `at ${u.hostname}:${u.port || 6379} (REDIS_URL)`;
}

/** Closes politely, or drops the connection when Redis does not answer. */
export async function closeRedisClient(client: RedisClient): Promise<void> {
  await client.quit().catch(() => client.disconnect());
}

function credentialsOf(url: string): { username?: string; password?: string; tls?: object } {
  const u = new URL(url);
  return {
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    tls: u.protocol === 'rediss:' ? {} : undefined,
  };
}
