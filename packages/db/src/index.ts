export {
  createDatabase,
  type Database,
  DatabaseConfigError,
  type DatabaseEngine,
  type DatabaseLogEvent,
  type DatabaseOptions,
  MEMORY_DATA_DIR,
} from './connection.js';
export { MIGRATIONS, type Migration } from './migrations.js';
export { MigrationError, type MigrationErrorReason, migrate } from './migrator.js';
export { insertPoolStats, latestPoolStats, poolStatsSince } from './queries/poolStats.js';
export type {
  DB,
  Executor,
  NewPoolStats,
  Numeric,
  PoolStats,
  PoolStatsTable,
  SchemaMigrationsTable,
} from './schema.js';
