import Redis, { Cluster } from 'ioredis';
import { loadConfig } from '../config/config';
import {
  closeRedisClient,
  createQueueConnection,
  createRedisClient as sut,
  QUEUE_SOCKET_TIMEOUT_MS,
  redisLocation,
  type RedisClient,
} from './redis-connection';

const single = loadConfig({ REDIS_URL: 'rediss://fincore:s%40cret@redis.internal:6380/2' });
const cluster = loadConfig({
  REDIS_URL: 'rediss://fincore:s%40cret@ignored:6379/2',
  REDIS_CLUSTER_NODES: 'node-a:7000,node-b:7001',
});

describe('createRedisClient', () => {
  const made: RedisClient[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((client) => closeRedisClient(client)));
  });
  const make = (...args: Parameters<typeof sut>) => {
    const client = sut(...args);
    made.push(client);
    return client;
  };

  it('connects to the server of REDIS_URL when no cluster is configured', () => {
    const client = make(single, { lazyConnect: true, maxRetriesPerRequest: 2, commandTimeout: 700 });
    expect(client).toBeInstanceOf(Redis);
    expect(client.options).toMatchObject({
      host: 'redis.internal',
      port: 6380,
      db: 2,
      username: 'fincore',
      password: 's@cret',
      maxRetriesPerRequest: 2,
      commandTimeout: 700,
      enableOfflineQueue: true,
    });
  });

  it('connects to the seed nodes with the user, password and TLS of REDIS_URL when a cluster is configured', () => {
    const client = make(cluster, { lazyConnect: true, maxRetriesPerRequest: 2, commandTimeout: 700 });
    expect(client).toBeInstanceOf(Cluster);
    const { options } = client as Cluster;
    expect((client as unknown as { startupNodes: unknown }).startupNodes).toEqual([
      { host: 'node-a', port: 7000 },
      { host: 'node-b', port: 7001 },
    ]);
    expect(options.redisOptions).toMatchObject({
      username: 'fincore',
      password: 's@cret',
      tls: {},
      maxRetriesPerRequest: 2,
      commandTimeout: 700,
    });
    expect(options.enableOfflineQueue).toBe(true);
  });

  it('gives up at the first failure to connect when told not to reconnect, on a cluster too', () => {
    const one = make(single, { lazyConnect: true, maxRetriesPerRequest: 0, reconnect: false }) as Redis;
    const many = make(cluster, { lazyConnect: true, maxRetriesPerRequest: 0, reconnect: false }) as Cluster;
    expect(one.options.retryStrategy?.(1)).toBeNull();
    expect(many.options.clusterRetryStrategy?.(1)).toBeNull();
  });
});

describe('createQueueConnection', () => {
  it('gives BullMQ options of the single server, waiting out outages and replacing a silent connection', () => {
    expect(createQueueConnection(single)).toEqual({
      host: 'redis.internal',
      port: 6380,
      db: 2,
      username: 'fincore',
      password: 's@cret',
      tls: {},
      maxRetriesPerRequest: null,
      socketTimeout: QUEUE_SOCKET_TIMEOUT_MS,
    });
  });

  it('gives BullMQ a cluster instance whose node connections wait out outages and are replaced when silent', async () => {
    const connection = createQueueConnection({ ...cluster, REDIS_CLUSTER_NODES: '127.0.0.1:1' });
    try {
      expect(connection).toBeInstanceOf(Cluster);
      expect((connection as Cluster).options.redisOptions).toMatchObject({
        maxRetriesPerRequest: null,
        socketTimeout: QUEUE_SOCKET_TIMEOUT_MS,
      });
    } finally {
      (connection as Cluster).disconnect();
    }
  });
});

describe('redisLocation', () => {
  it('names the server or the cluster nodes and the setting that chose them', () => {
    expect(redisLocation(single)).toBe('at redis.internal:6380 (REDIS_URL)');
    expect(redisLocation(cluster)).toBe('at the cluster nodes node-a:7000,node-b:7001 (REDIS_CLUSTER_NODES)');
  });
});

describe('REDIS_CLUSTER_NODES', () => {
  it('is unset by default and refused when it is not a host:port list', () => {
    expect(loadConfig({}).REDIS_CLUSTER_NODES).toBeUndefined();
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis://a:7000' })).toThrow(/REDIS_CLUSTER_NODES/);
  });
});
