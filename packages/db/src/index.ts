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
export { blockByHash, countBlocksByAlgorithm, recordBlock } from './queries/blocks.js';
export {
  type HashrateBucket,
  hashrateBuckets,
  insertPoolStats,
  latestPoolStats,
  poolStatsSince,
  savePoolStats,
} from './queries/poolStats.js';
export { recordShareBatch, type ShareBatchRecord } from './queries/shareBatches.js';
export {
  addWorkerMinuteStats,
  topWindowAccounts,
  type WindowActivity,
  type WorkerMinuteCounts,
  windowActivity,
} from './queries/workerStats.js';
export {
  type AccountDifficulty,
  allTimeDifficultyByAlgorithm,
  countMinedAccounts,
  topAllTimeAccounts,
  upsertWorkers,
  type WorkerActivity,
  type WorkerKey,
} from './queries/workers.js';
export type {
  Block,
  BlockStatus,
  BlocksTable,
  DB,
  Executor,
  NewBlock,
  NewPoolStats,
  Numeric,
  PoolStats,
  PoolStatsTable,
  SchemaMigrationsTable,
  ShareBatchesTable,
  Worker,
  WorkerStatsMinuteTable,
  WorkersTable,
} from './schema.js';
