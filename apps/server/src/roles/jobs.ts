import type { Database } from '@lodestone/db';
import type { Logger } from 'pino';
import { minedCoin } from '../chains/registry.js';
import { type Config, fppsCoins } from '../config/config.js';
import type { CreditSettings } from '../jobs/accounting.js';
import { blockConfirmationJob } from '../jobs/blockConfirmations.js';
import { ledgerCheckJob, pendingCreditJob, pricesJob } from '../jobs/credits.js';
import { hashrateAlertJob } from '../jobs/hashrateAlerts.js';
import { prometheusAccountingMetrics, registerJobMetrics } from '../jobs/metrics.js';
import { monthlyReportJob } from '../jobs/monthlyReports.js';
import { fppsValuationLog, networkFeesJob } from '../jobs/networkFees.js';
import { notificationSenderJob } from '../jobs/notificationSender.js';
import { payoutNoticeJob } from '../jobs/payoutNotices.js';
import { payoutJob } from '../jobs/payouts/run.js';
import { createPriceFeed } from '../jobs/prices/priceFeed.js';
import { startJobsRole } from '../jobs/role.js';
import { rollupJob } from '../jobs/rollup.js';
import { createTelegramBot } from '../jobs/telegram/telegramBot.js';
import { telegramSenderJob } from '../jobs/telegram/telegramSender.js';
import { telegramUpdatesJob } from '../jobs/telegram/telegramUpdates.js';
import type { JobDefinition } from '../jobs/types.js';
import { walletSnapshotJob } from '../jobs/walletSnapshots.js';
import { type WalletsProvider, walletsOnce } from '../jobs/wallets/wallets.js';
import { workerAlertJob } from '../jobs/workerAlerts.js';
import { workerRollupJob } from '../jobs/workerRollup.js';
import { powHashesPerDifficulty } from '../services/hashesPerDifficulty.js';
import { configuredMailer, type Mailer } from '../services/mail.js';
import { miningSettings } from '../services/mining.js';
import type { ProcessParts, Running } from './shared.js';

/**
 * The jobs role: accounting of the share bus and every periodic job of the pool, with one process of
 * several active on PostgreSQL (jobs/role.ts, jobs/lease.ts). Only this role builds the hot wallets
 * and reads their keys (docs/money.md, "Securing the hot wallets").
 */
export async function startJobs(parts: ProcessParts, running: Running[]): Promise<void> {
  const { config, database, bus, health, sessionName } = parts;
  const log = parts.log.child({ role: 'jobs' });
  // Alerts to the admins (docs/admin.md, "Alerts by e-mail") go out as the website's mail does.
  const mailer = configuredMailer(config, log);
  running.push({ name: 'jobs mailer', stop: async () => mailer.close() });
  const credit: CreditSettings = {
    feePercent: config.feePercent,
    soloFeePercent: config.soloFeePercent,
    priceMaxAgeMs: config.priceMaxAgeSeconds * 1000,
    schemes: new Map(fppsCoins(config.coins).map((coin) => [coin.ticker, 'fpps'])),
    onFppsValuation: fppsValuationLog(log),
  };
  const jobs = await startJobsRole({
    database,
    bus,
    log,
    credit,
    // Several jobs processes on one PostgreSQL database: one active, the others standing by.
    lease: { holder: sessionName },
    jobs: poolJobs(config, { database, log, mailer, credit, hotWallets: walletsOnce(config) }),
    metrics: config.metricsEnabled ? prometheusAccountingMetrics(parts.registry) : undefined,
  });
  if (config.metricsEnabled) registerJobMetrics(parts.registry, jobs);
  running.push({ name: 'jobs', stop: () => jobs.stop() });
  health.sources.jobs = jobs;
}

interface JobDependencies {
  database: Database;
  log: Logger;
  mailer: Mailer;
  credit: CreditSettings;
  hotWallets: WalletsProvider;
}

/** Every periodic job of the pool, in one list: what the jobs role runs (docs/deployment.md, "jobs"). */
function poolJobs(config: Config, deps: JobDependencies): JobDefinition[] {
  const { mailer, hotWallets, credit } = deps;
  return [
    rollupJob({ windowMinutes: config.statsWindowMinutes, hashesPerDifficulty: powHashesPerDifficulty }),
    pricesJob(createPriceFeed(config), config.priceRefreshSeconds * 1000),
    pendingCreditJob(credit),
    ledgerCheckJob(),
    payoutJob({ config, hotWallets, mailer }),
    blockConfirmationJob({ config }),
    ...networkFeeJobs(config, deps),
    walletSnapshotJob({ config, hotWallets }),
    workerRollupJob({ windowMinutes: config.statsWindowMinutes }),
    workerAlertJob({ poolName: config.poolName, publicUrl: config.publicUrl }),
    hashrateAlertJob({ poolName: config.poolName, publicUrl: config.publicUrl }),
    monthlyReportJob({ poolName: config.poolName, publicUrl: config.publicUrl }),
    notificationSenderJob({ mailer, publicUrl: config.publicUrl, emailsPerMinute: config.notificationEmailsPerMinute }),
    ...telegramJobs(config, deps),
  ];
}

/** The fee job when a coin is set to FPPS: each one's network fees read from its nodes. */
function networkFeeJobs(config: Config, { log }: JobDependencies): JobDefinition[] {
  const coins = fppsCoins(config.coins);
  if (coins.length === 0) return [];
  return [
    networkFeesJob({
      coins: () =>
        coins.flatMap((coin) => {
          const reader = minedCoin(coin).networkFees?.(log);
          return reader ? [{ ticker: coin.ticker, reader }] : [];
        }),
    }),
  ];
}

/**
 * The Telegram bot's jobs when TELEGRAM_BOT_TOKEN is set (docs/notifications.md, "Telegram"): reading
 * and answering its messages, sending the outbox's Telegram messages, queuing payout notices.
 */
function telegramJobs(config: Config, { database, log }: JobDependencies): JobDefinition[] {
  if (!config.telegramBotToken) return [];
  const telegram = createTelegramBot({
    token: config.telegramBotToken,
    apiRoot: config.telegramApiRoot,
    db: database.db,
    poolName: config.poolName,
    publicUrl: config.publicUrl,
    mining: miningSettings(config, powHashesPerDifficulty),
    log,
  });
  return [telegramUpdatesJob(telegram), telegramSenderJob(telegram), payoutNoticeJob({ poolName: config.poolName })];
}
