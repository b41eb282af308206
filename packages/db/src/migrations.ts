import m0001 from '../migrations/0001_pool_stats.sql';
import m0002 from '../migrations/0002_share_accounting.sql';
import m0003 from '../migrations/0003_accounts.sql';
import m0004 from '../migrations/0004_money.sql';
import m0005 from '../migrations/0005_worker_rollups.sql';
import m0006 from '../migrations/0006_public.sql';
import m0007 from '../migrations/0007_earnings_rollup.sql';
import m0008 from '../migrations/0008_day_period_with_current_hour.sql';
import m0009 from '../migrations/0009_session_two_factor.sql';
import m0010 from '../migrations/0010_payout_transactions.sql';
import m0011 from '../migrations/0011_wallet_snapshots.sql';
import m0012 from '../migrations/0012_operator_alerts.sql';
import m0013 from '../migrations/0013_notifications.sql';
import m0014 from '../migrations/0014_notification_attachments.sql';
import m0015 from '../migrations/0015_telegram.sql';
import m0016 from '../migrations/0016_payouts_sent_at.sql';
import m0017 from '../migrations/0017_alerts_telegram_only.sql';
import m0018 from '../migrations/0018_jobs_lease.sql';
import m0019 from '../migrations/0019_workers_last_accepted.sql';
import m0020 from '../migrations/0020_merged_network_states.sql';
import m0021 from '../migrations/0021_block_rounds.sql';
import m0022 from '../migrations/0022_session_devices.sql';
import m0023 from '../migrations/0023_watcher_links.sql';
import m0024 from '../migrations/0024_hashrate_alerts.sql';
import m0025 from '../migrations/0025_worker_rejects.sql';
import m0026 from '../migrations/0026_worker_labels.sql';
import m0027 from '../migrations/0027_worker_connections.sql';
import m0028 from '../migrations/0028_hashrate_alert_groups.sql';
import m0029 from '../migrations/0029_network_block_seconds.sql';
import m0030 from '../migrations/0030_fpps.sql';
import m0031 from '../migrations/0031_pps_valuations_newest.sql';
import m0032 from '../migrations/0032_earnings_fees.sql';
import m0033 from '../migrations/0033_solo.sql';
import m0034 from '../migrations/0034_worker_unrolled.sql';
import m0035 from '../migrations/0035_block_chain.sql';

const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export interface Migration {
  readonly version: number;
  /** The file name without version and extension: `pool_stats` for 0001_pool_stats.sql. */
  readonly name: string;
  readonly sql: string;
}

/**
 * Every migration, oldest first, embedded as text (no file reads at run time). When you add a file
 * to migrations/, add it here too; migrations.db.test.ts fails if the two disagree.
 *
 * A migration runs inside a transaction the migrator opens, so a file must not BEGIN or COMMIT.
 * Never edit an applied file: the migrator refuses a changed checksum. Add a new file instead.
 */
export const MIGRATIONS: readonly Migration[] = [
  migration('0001_pool_stats.sql', m0001),
  migration('0002_share_accounting.sql', m0002),
  migration('0003_accounts.sql', m0003),
  migration('0004_money.sql', m0004),
  migration('0005_worker_rollups.sql', m0005),
  migration('0006_public.sql', m0006),
  migration('0007_earnings_rollup.sql', m0007),
  migration('0008_day_period_with_current_hour.sql', m0008),
  migration('0009_session_two_factor.sql', m0009),
  migration('0010_payout_transactions.sql', m0010),
  migration('0011_wallet_snapshots.sql', m0011),
  migration('0012_operator_alerts.sql', m0012),
  migration('0013_notifications.sql', m0013),
  migration('0014_notification_attachments.sql', m0014),
  migration('0015_telegram.sql', m0015),
  migration('0016_payouts_sent_at.sql', m0016),
  migration('0017_alerts_telegram_only.sql', m0017),
  migration('0018_jobs_lease.sql', m0018),
  migration('0019_workers_last_accepted.sql', m0019),
  migration('0020_merged_network_states.sql', m0020),
  migration('0021_block_rounds.sql', m0021),
  migration('0022_session_devices.sql', m0022),
  migration('0023_watcher_links.sql', m0023),
  migration('0024_hashrate_alerts.sql', m0024),
  migration('0025_worker_rejects.sql', m0025),
  migration('0026_worker_labels.sql', m0026),
  migration('0027_worker_connections.sql', m0027),
  migration('0028_hashrate_alert_groups.sql', m0028),
  migration('0029_network_block_seconds.sql', m0029),
  migration('0030_fpps.sql', m0030),
  migration('0031_pps_valuations_newest.sql', m0031),
  migration('0032_earnings_fees.sql', m0032),
  migration('0033_solo.sql', m0033),
  migration('0034_worker_unrolled.sql', m0034),
  migration('0035_block_chain.sql', m0035),
];

export function migration(fileName: string, sql: string): Migration {
  const match = FILE_NAME.exec(fileName);
  if (!match?.[1] || !match[2]) throw new Error(`migration file ${fileName} is not named NNNN_name.sql`);
  return { version: Number(match[1]), name: match[2], sql };
}

export function migrationFileName(m: Pick<Migration, 'version' | 'name'>): string {
  return `${String(m.version).padStart(4, '0')}_${m.name}.sql`;
}
