import type { StratumListenerInfo } from '@lodestone/contract';
import type { Database } from '@lodestone/db';
import type { Algorithm } from '@lodestone/domain';
import type { Config } from '../config/config.js';
import { ProcessHealth } from '../health.js';
import type { AccountsContext } from './accounts/context.js';
import type { RecoveryMail } from './accounts/recovery.js';
import { Captcha } from './auth/captcha.js';
import { Sessions } from './auth/sessions.js';
import { BackgroundTasks } from './background.js';
import { type HashesPerDifficulty, powHashesPerDifficulty } from './hashesPerDifficulty.js';
import type { ServiceLog } from './log.js';
import { configuredMailer, type Mailer } from './mail.js';
import { type MiningContext, miningSettings } from './mining.js';
import type { MoneyContext } from './money/coinCatalogue.js';
import { type ProfitsContext, readProfitHistory } from './public/profits.js';
import type { VipContext } from './public/vip.js';
import type { NetworkInfo } from './site.js';
import { ttlCacheBy } from './ttlCache.js';

/**
 * Our profitability over 24 hours to 30 days moves slowly, and reading 30 days of snapshots costs a
 * range scan (about 130,000 rows per algorithm): each API process reads it once a minute at most.
 */
export const PROFIT_HISTORY_CACHE_MS = 60_000;

export interface ServicesOptions {
  config: Config;
  database: Database;
  network: NetworkInfo;
  /** The stratum ports miners can use (from configuration, with the bound ports when stratum runs here). */
  stratum: () => StratumListenerInfo[];
  log: ServiceLog;
  /** Where e-mails go; default: SMTP_URL, or the outbox folder under DATA_DIR. */
  mailer?: Mailer | undefined;
  /** The clock of sessions, logins, 2FA, the robot check and the dashboard's reads (tests move it). */
  now?: (() => Date) | undefined;
  /** The process's health (main passes its own, with the bus and jobs); default: this API and its database. */
  health?: ProcessHealth | undefined;
}

/**
 * Everything the API's handlers call, built once per app from configuration and the database: the
 * contexts the service functions take, and the stateful pieces (sessions, the robot check, the
 * mailer, background tasks). The route plugins read it from `app.services` and take what they use.
 */
export interface Services {
  config: Config;
  database: Database;
  network: NetworkInfo;
  stratum: () => StratumListenerInfo[];
  health: ProcessHealth;
  now: () => Date;
  hashesPerDifficulty: HashesPerDifficulty;
  sessions: Sessions;
  captcha: Captcha;
  mailer: Mailer;
  tasks: BackgroundTasks;
  accounts: AccountsContext;
  recoveryMail: RecoveryMail;
  mining: MiningContext;
  /** The window and conventions every hashrate read uses (pool detail, referrals). */
  hashrate: { windowMinutes: number; hashesPerDifficulty: HashesPerDifficulty };
  money: MoneyContext;
  /** With each algorithm's profit history cached for PROFIT_HISTORY_CACHE_MS. */
  profits: ProfitsContext;
  vip: VipContext;
  /** Waits for background tasks, then closes the mailer this built (not one passed in). */
  close(): Promise<void>;
}

/** The composition root of the API role: each service is built here once, and nowhere else. */
export async function createServices(options: ServicesOptions): Promise<Services> {
  const { config, database, log } = options;
  const { db } = database;
  const now = options.now ?? (() => new Date());
  const hashesPerDifficulty = powHashesPerDifficulty;
  const sessions = new Sessions(db, config.sessionTtlDays * 24 * 3600_000, now);
  const captcha = await Captcha.create(db, {
    hmacKey: config.captchaHmacKey,
    maxNumber: config.captchaMaxNumber,
    now,
  });
  const mailer = options.mailer ?? configuredMailer(config, log);
  const tasks = new BackgroundTasks(log);
  const profitHistory = ttlCacheBy(
    PROFIT_HISTORY_CACHE_MS,
    (algorithm: Algorithm) => readProfitHistory(db, algorithm, now()),
    (algorithm) => algorithm.key,
  );

  return {
    config,
    database,
    network: options.network,
    stratum: options.stratum,
    health: options.health ?? new ProcessHealth({ roles: new Set(['api']), database }),
    now,
    hashesPerDifficulty,
    sessions,
    captcha,
    mailer,
    tasks,
    accounts: { db, sessions, now },
    recoveryMail: { mailer, publicUrl: config.publicUrl, poolName: config.poolName },
    mining: { db, now, ...miningSettings(config, hashesPerDifficulty) },
    hashrate: { windowMinutes: config.statsWindowMinutes, hashesPerDifficulty },
    money: {
      db,
      now,
      priceMaxAgeMs: config.priceMaxAgeSeconds * 1000,
      // Addresses are checked as mainnet addresses: the configuration names no test chain for payouts,
      // and on the demo network miners enter the real addresses they will be paid at later.
      addressNetwork: 'mainnet',
    },
    profits: {
      db,
      own: { name: config.poolName, url: config.publicUrl },
      history: profitHistory,
    },
    vip: {
      db,
      now,
      mailer,
      tasks,
      operatorEmail: config.vipEmail ?? config.supportEmail,
      poolName: config.poolName,
    },
    async close() {
      await tasks.idle();
      if (!options.mailer) mailer.close();
    },
  };
}
