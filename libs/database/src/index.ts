export {
  createDataSource,
  DATABASE_TIMEOUT_DEFAULTS,
  describeDatabase,
  ensureDatabase,
  migrate,
} from './data-source';
export { DatabaseModule } from './database.module';
export { queryPrepared } from './prepared-statement';
export { StatementBatch } from './statement-batch';
export type { BatchWays } from './statement-batch';
