export { OwnedPostgres } from './owned-postgres';
export { OwnedRedis } from './owned-redis';
