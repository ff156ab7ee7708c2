export { OwnedPostgres } from './owned-postgres';
export { OwnedRedis } from './owned-redis';
export { OwnedRedisCluster } from './owned-redis-cluster';
