import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Database, DataDirError, migrate } from '@lodestone/db';
import type { AlgorithmKey } from '@lodestone/domain';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import { InProcessBus } from './bus/inProcess.js';
import { NatsBus, type NatsBusEvent } from './bus/nats.js';
import type { ShareBus } from './bus/types.js';
import { adminCli } from './cli/admin.js';
import { treasuryCli } from './cli/treasury.js';
import { type Config, ConfigError, loadConfig } from './config/config.js';
import { keyFileProblems } from './config/keyFile.js';
import { startFleet } from './demo/fleet.js';
import { ProcessHealth } from './health.js';
import { startHealthServer } from './http/healthServer.js';
import { createMetricsRegistry } from './http/metrics.js';
import { blockConfirmationJob } from './jobs/blockConfirmations.js';
import { monthlyReportJob } from './jobs/monthlyReports.js';
import { notificationSenderJob } from './jobs/notificationSender.js';
import { payoutNoticeJob } from './jobs/payoutNotices.js';
import { payoutJob } from './jobs/payouts.js';
import { startJobsRole } from './jobs/role.js';
import { telegramSenderJob } from './jobs/telegramSender.js';
import { telegramUpdatesJob } from './jobs/telegramUpdates.js';
import type { JobDefinition } from './jobs/types.js';
import { walletSnapshotJob } from './jobs/walletSnapshots.js';
import { workerAlertJob } from './jobs/workerAlerts.js';
import { workerRollupJob } from './jobs/workerRollup.js';
import { createJobSources, demoAlgorithms } from './network.js';
import { openDatabase } from './openDatabase.js';
import { createProcessLog } from './processLog.js';
import { parseRoles, type Role, UsageError } from './roles.js';
import { ensureDemoAccounts } from './services/accounts/demo.js';
import { accountAuthorizer } from './services/accounts/stratumAuthorizer.js';
import { powHashesPerDifficulty } from './services/hashesPerDifficulty.js';
import { createMailer } from './services/mail.js';
import { createPriceFeed } from './services/money/priceFeed.js';
import { walletsOnce } from './services/money/wallets.js';
import { createTelegramBot } from './services/notifications/telegramBot.js';
import { placeholderContacts } from './services/site.js';
import { describeStratum } from './services/stratumInfo.js';
import { ShareJournalError } from './stratum/shareJournal.js';
import { startStratum } from './stratum/startStratum.js';

/** Something started that must be stopped, in reverse order of starting. */
interface Running {
  name: string;
  stop(): Promise<unknown>;
}

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

/** The demo fleet's share interval at most, whatever vardiff aims real miners at. */
const DEMO_FLEET_SHARE_SECONDS = 5;

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

/**
 * The Telegram bot's jobs when TELEGRAM_BOT_TOKEN is set (docs/notifications.md, "Telegram"): reading
 * and answering its messages, sending the outbox's Telegram messages, queuing payout notices.
 */
function telegramJobs(config: Config, database: Database, log: Logger): JobDefinition[] {
  if (!config.telegramBotToken) return [];
  const telegram = createTelegramBot({
    token: config.telegramBotToken,
    apiRoot: config.telegramApiRoot,
    db: database.db,
    poolName: config.poolName,
    publicUrl: config.publicUrl,
    mining: {
      windowMinutes: config.statsWindowMinutes,
      feePercent: config.feePercent,
      hashesPerDifficulty: powHashesPerDifficulty,
    },
    log,
  });
  return [telegramUpdatesJob(telegram), telegramSenderJob(telegram), payoutNoticeJob({ poolName: config.poolName })];
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
  if (roles.has('jobs')) {
    // Only the jobs role builds the hot wallets and reads their keys (docs/money.md, "Securing the hot wallets").
    const hotWallets = walletsOnce(config);
    const jobsLog = log.child({ role: 'jobs' });
    // Alerts to the admins (docs/admin.md, "Alerts by e-mail") go out as the website's mail does.
    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      log: jobsLog,
    });
    running.push({ name: 'jobs mailer', stop: async () => mailer.close() });
    const jobs = await startJobsRole({
      database,
      bus,
      log: jobsLog,
      statsWindowMinutes: config.statsWindowMinutes,
      credit: { feePercent: config.feePercent, priceMaxAgeMs: config.priceMaxAgeSeconds * 1000 },
      // Several jobs processes on one PostgreSQL database: one active, the others standing by.
      lease: { holder: sessionName },
      prices: { feed: createPriceFeed(config), everyMs: config.priceRefreshSeconds * 1000 },
      jobs: [
        payoutJob({ config, hotWallets, mailer }),
        blockConfirmationJob({ config }),
        walletSnapshotJob({ config, hotWallets }),
        workerRollupJob({ windowMinutes: config.statsWindowMinutes }),
        workerAlertJob({ poolName: config.poolName, publicUrl: config.publicUrl }),
        monthlyReportJob({ poolName: config.poolName, publicUrl: config.publicUrl }),
        notificationSenderJob({
          mailer,
          publicUrl: config.publicUrl,
          emailsPerMinute: config.notificationEmailsPerMinute,
        }),
        ...telegramJobs(config, database, jobsLog),
      ],
    });
    running.push({ name: 'jobs', stop: () => jobs.stop() });
    health.sources.jobs = jobs;
  }
  // Stopped before the jobs role: closing the bus delivers the last share batches to its consumers.
  running.push({ name: 'bus', stop: () => bus.close() });

  let boundPorts: number[] | undefined;
  if (roles.has('stratum')) {
    const stratumLog = log.child({ role: 'stratum' });
    const sources = createJobSources(config, stratumLog);
    for (const source of sources) {
      await source.start();
      running.push({ name: `job source ${source.algorithm}`, stop: () => source.stop() });
    }
    const tls =
      config.stratumTlsKeyFile && config.stratumTlsCertFile
        ? { key: readFileSync(config.stratumTlsKeyFile), cert: readFileSync(config.stratumTlsCertFile) }
        : undefined;
    const stratum = await startStratum({
      node: config.nodeName,
      listeners: config.stratumListeners.map((l) => ({
        algorithm: l.algorithm,
        port: l.port,
        host: l.host,
        kind: l.kind,
        minDifficulty: l.min_difficulty,
        maxDifficulty: l.max_difficulty,
        startDifficulty: l.start_difficulty,
        tls: l.tls ? tls : undefined,
        maxConnections: l.max_connections,
      })),
      sources,
      bus,
      log: stratumLog,
      vardiff: { targetIntervalMs: config.shareIntervalSeconds * 1000 },
      maxConnections: config.stratumMaxConnections,
      // One journal per stratum node, should several share a DATA_DIR.
      journalDirectory: path.join(config.dataDir, 'share-journal', config.nodeName.replace(/[^A-Za-z0-9._-]/g, '_')),
      registry,
      // Only registered, live accounts may mine (by their exact name).
      authorize: accountAuthorizer(database.db),
    });
    running.push({ name: 'stratum', stop: () => stratum.stop() });
    boundPorts = stratum.listeners.map((l) => l.port);

    const demo = new Set<AlgorithmKey>(demoAlgorithms(config));
    const targets = stratum.listeners
      .filter((l) => demo.has(l.algorithm) && l.kind === 'standard' && !l.tls)
      .filter((l, i, all) => all.findIndex((o) => o.algorithm === l.algorithm) === i)
      .map((l) => ({ algorithm: l.algorithm, host: l.host === '0.0.0.0' ? '127.0.0.1' : l.host, port: l.port }));
    if (config.demoWorkers > 0 && targets.length > 0) {
      // The fleet mines for demo1 … demoN, owned by a demo user that cannot log in.
      await ensureDemoAccounts(database.db, config.demoAccounts, stratumLog);
      const fleet = startFleet({
        targets,
        workers: config.demoWorkers,
        accounts: config.demoAccounts,
        // A share every 5 s at most: with the default six workers one mines each algorithm (SCRYPT at
        // 40 H/s), and at one share in 10 s its first share came, now and then, after the minute in
        // which the home page is to show all six algorithms live.
        shareIntervalSeconds: Math.min(config.shareIntervalSeconds, DEMO_FLEET_SHARE_SECONDS),
        log: log.child({ role: 'demo-fleet' }),
      });
      running.push({ name: 'demo fleet', stop: () => fleet.stop() });
      log.info({ workers: config.demoWorkers, algorithms: targets.map((t) => t.algorithm) }, 'demo fleet mining');
    }
  }

  if (roles.has('api')) {
    const listeners = describeStratum(config, boundPorts);
    const app = await buildApp({
      config,
      database,
      network: { demo: demoAlgorithms(config).length > 0 },
      stratum: () => listeners,
      registry,
      health,
      logger: log.child({ role: 'api' }),
    });
    await app.listen({ port: config.port, host: config.host });
    running.push({ name: 'api', stop: () => app.close() });
    log.info(`Lodestone is running: ${config.publicUrl}`);
    const placeholders = placeholderContacts(config);
    if (placeholders.length > 0) {
      const vip =
        config.vipEmail === undefined && placeholders.includes('SUPPORT_EMAIL')
          ? `, and VIP applications are e-mailed to ${config.supportEmail}`
          : '';
      log.warn(
        { settings: placeholders },
        `contact details not configured: ${placeholders.join(', ')} still hold built-in placeholders; the website shows "not configured" in their place${vip}`,
      );
    }
  }
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
