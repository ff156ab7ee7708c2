export {
  createDataSource,
  DATABASE_TIMEOUT_DEFAULTS,
  describeDatabase,
  ensureDatabase,
  migrate,
} from './data-source';
export { DatabaseModule } from './database.module';
export { queryPrepared } from './prepared-statement';
