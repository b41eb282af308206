import { mkdirSync } from 'node:fs';
import { createDatabase, type Database, migrate } from '@lodestone/db';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config/config.js';

/**
 * Starts Lodestone: configuration, database (migrated), then the API and website. On SIGTERM or
 * SIGINT it stops accepting connections, lets in-flight requests finish, then closes the database.
 * A second signal exits at once.
 */
async function start(config: Config): Promise<void> {
  mkdirSync(config.dataDir, { recursive: true });
  const database: Database = await createDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  let app: FastifyInstance | undefined;
  let stopping = false;

  const stop = async (signal: string) => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting now\n`);
      process.exit(1);
    }
    stopping = true;
    app?.log.info({ signal }, 'shutting down');
    try {
      await app?.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      process.stderr.write(`shutdown failed: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  const applied = await migrate(database);
  // No coin daemon or demo job source exists in this build yet, so the site must not claim a demo network.
  app = await buildApp({ config, database, network: { demo: false } });
  app.log.info({ engine: database.engine, dataDir: config.dataDir, migrationsApplied: applied }, 'database ready');
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Lodestone is running: ${config.publicUrl}`);
}

process.on('unhandledRejection', (reason) => {
  process.stderr.write(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}\n`);
  process.exit(1);
});

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\nSee docs/configuration.md for every setting.\n`);
    process.exit(78); // EX_CONFIG
  }
  throw error;
}

start(config).catch((error: unknown) => {
  process.stderr.write(
    `Lodestone failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
