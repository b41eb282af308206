import { randomBytes } from 'node:crypto';
import { type Database, DataDirError, migrate } from '@lodestone/db';
import type { Logger } from 'pino';
import { InProcessBus } from './bus/inProcess.js';
import { NatsBus, type NatsBusEvent } from './bus/nats.js';
import type { ShareBus } from './bus/types.js';
import { adminCli } from './cli/admin.js';
import { treasuryCli } from './cli/treasury.js';
import { type Config, ConfigError, loadConfig } from './config/config.js';
import { keyFileProblems } from './config/keyFile.js';
import { ProcessHealth } from './health.js';
import { startHealthServer } from './http/healthServer.js';
import { createMetricsRegistry } from './http/metrics.js';
import { openDatabase } from './openDatabase.js';
import { createProcessLog } from './processLog.js';
import { startApi } from './roles/api.js';
import { startJobs } from './roles/jobs.js';
import { parseRoles, type Role, UsageError } from './roles/parseRoles.js';
import type { ProcessParts, Running } from './roles/shared.js';
import { startStratumRole } from './roles/stratum.js';
import { ShareJournalError } from './stratum/shareJournal.js';

/**
 * Starts Lodestone: configuration, database (migrated), the share bus, then the roles this process
 * runs — by default all three: the API and website, the stratum servers with their job sources (and
 * the demo fleet where an algorithm has no coin daemon), and the jobs (accounting, rollups). On
 * SIGTERM or SIGINT everything stops in reverse order: the fleet and miners first, the last share
 * batches are flushed and applied, in-flight HTTP requests finish, then the database closes. A second
 * signal exits at once.
 */
async function start(config: Config, roles: Set<Role>, log: Logger): Promise<void> {
  if (roles.size < 3 && !(config.natsUrl && config.databaseUrl)) {
    throw new UsageError(
      'running only some roles in a process needs NATS_URL (the share bus between processes) and DATABASE_URL (a PostgreSQL server they share); without them, start all roles together (no --role)',
    );
  }

  const running: Running[] = [];
  let stopping = false;
  const stopAll = async (reason: string) => {
    if (stopping) {
      process.stderr.write(`${reason} again: exiting now\n`);
      process.exit(1);
    }
    stopping = true;
    log.info({ reason }, 'shutting down');
    process.exit((await stopRunning(running, log)) ? 0 : 1);
  };
  process.on('SIGTERM', () => void stopAll('SIGTERM'));
  process.on('SIGINT', () => void stopAll('SIGINT'));

  try {
    await startParts(config, roles, log, running);
  } catch (error) {
    // Whatever started is stopped again, so the database closes cleanly even on a failed start.
    await stopRunning(running, log);
    throw error;
  }
}

/** How long a part may take to stop before the log says so. */
const SLOW_STOP_MS = 5_000;

/**
 * Stops what started, newest first, on a copy of the list (a signal may arrive while start-up is
 * still adding to it). Returns false when any part failed to stop.
 */
async function stopRunning(running: readonly Running[], log: Logger): Promise<boolean> {
  let ok = true;
  for (const part of [...running].reverse()) {
    const started = performance.now();
    try {
      await part.stop();
      const ms = performance.now() - started;
      // A part that holds shutdown up (a job run finishing its statements) is named, so a slow stop is explained.
      if (ms >= SLOW_STOP_MS) log.warn({ part: part.name, ms }, 'slow to stop');
    } catch (error) {
      ok = false;
      log.error({ err: error, part: part.name }, 'stopping failed');
    }
  }
  return ok;
}

/** Starts the database, the bus and each role, recording in `running` what must be stopped. */
async function startParts(config: Config, roles: Set<Role>, log: Logger, running: Running[]): Promise<void> {
  if (roles.has('jobs')) {
    // The jobs role alone reads the hot wallets' keys: a key others can read stops it before anything runs.
    const problems = keyFileProblems(config.wallets);
    if (problems.length > 0) throw new ConfigError(problems);
  }
  const registry = createMetricsRegistry();
  const health = new ProcessHealth({ roles });
  if (config.metricsEnabled) health.register(registry);
  if (!roles.has('api')) {
    // Without the API, the process still answers health checks and Prometheus on PORT, from the
    // start: a load balancer sees it unready while its database is still out of reach.
    const server = await startHealthServer({
      health,
      registry: config.metricsEnabled ? registry : undefined,
      port: config.port,
      host: config.host,
      logger: log.child({ part: 'health' }),
    });
    running.push({ name: 'health server', stop: () => server.close() });
  }

  // Names this process's PostgreSQL sessions: a jobs process that takes the lease over from this one
  // ends them by this name (jobs/lease.ts). Unique per start, and within PostgreSQL's 63 bytes.
  const sessionName = `lodestone/${config.nodeName.slice(0, 32)}/${process.pid}/${randomBytes(3).toString('hex')}`;
  const database: Database = await openDatabase(
    {
      url: config.databaseUrl,
      applicationName: sessionName,
      dataDir: config.dataDir,
      // The embedded database runs in a thread of its own, never in the one that answers miners.
      pgliteWorker: new URL('./pglite-worker.js', import.meta.url),
    },
    log,
  );
  running.push({ name: 'database', stop: () => database.close() });
  health.sources.database = database;
  const applied = await migrate(database);
  log.info({ engine: database.engine, dataDir: config.dataDir, migrationsApplied: applied }, 'database ready');

  const onBusEvent = (event: NatsBusEvent | object) => {
    if ('type' in event && event.type === 'disconnected') {
      log.error({ event }, 'NATS connection lost; trying again until it is back (shares are kept meanwhile)');
    } else if ('type' in event && event.type === 'reconnected') log.warn({ event }, 'NATS connection back');
    else log.warn({ event }, 'share bus delivery problem');
  };
  const bus: ShareBus = config.natsUrl
    ? await NatsBus.connect({
        servers: config.natsUrl,
        prefix: config.natsStreamPrefix,
        name: config.nodeName,
        onEvent: onBusEvent,
      })
    : new InProcessBus({ onEvent: onBusEvent });
  health.sources.bus = bus;
  const parts: ProcessParts = { config, database, bus, log, registry, health, sessionName };
  if (roles.has('jobs')) await startJobs(parts, running);
  // Stopped before the jobs role: closing the bus delivers the last share batches to its consumers.
  running.push({ name: 'bus', stop: () => bus.close() });
  const stratumPorts = roles.has('stratum') ? await startStratumRole(parts, running) : undefined;
  if (roles.has('api')) await startApi(parts, running, stratumPorts);
}

// `lodestone admin grant|revoke EMAIL`: an operator command (cli/admin.ts), not a server start.
if (process.argv[2] === 'admin') process.exit(await adminCli(process.argv.slice(3)));
// `lodestone treasury [--json]`: the treasury's figures (cli/treasury.ts).
if (process.argv[2] === 'treasury') process.exit(await treasuryCli(process.argv.slice(3)));

process.on('unhandledRejection', (reason) => {
  process.stderr.write(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}\n`);
  process.exit(1);
});

let config: Config;
let roles: Set<Role>;
try {
  config = loadConfig();
  roles = parseRoles(process.argv.slice(2));
} catch (error) {
  if (error instanceof ConfigError || error instanceof UsageError) {
    process.stderr.write(`${error.message}\nSee docs/configuration.md for every setting.\n`);
    process.exit(78); // EX_CONFIG
  }
  throw error;
}

const log = createProcessLog(config.logLevel, config.logFormat);
start(config, roles, log).catch((error: unknown) => {
  // A refused data directory (in use, not writable, full) or key file is the operator's to fix: say so plainly.
  const operators = [UsageError, DataDirError, ConfigError, ShareJournalError].some((kind) => error instanceof kind);
  if (operators) process.stderr.write(`${(error as Error).message}\n`);
  else log.fatal({ err: error }, 'Lodestone failed to start');
  process.exit(operators ? 78 : 1); // EX_CONFIG
});
