import type { ReferralsResponse } from '@lodestone/contract';
import { type Account, accountsDifficulty, referredAccounts } from '@lodestone/db';
import {
  ALGORITHMS,
  type AlgorithmKey,
  estimateHashrate,
  scaleHashrate,
  statsWindow,
  sumDecimals,
} from '@lodestone/domain';
import type { HashesPerDifficulty } from '../hashesPerDifficulty.js';
import type { AccountsContext } from './context.js';

export interface ReferralOptions {
  windowMinutes: number;
  hashesPerDifficulty: HashesPerDifficulty;
}

/**
 * GET user/referrals: the live accounts this account referred, with their current hashrate per
 * algorithm (over the pool's statistics window). Revenue is "0" until referral rewards are credited
 * (the money issue adds them to the ledger); it is never estimated.
 */
export async function readReferrals(
  ctx: AccountsContext,
  account: Account,
  options: ReferralOptions,
): Promise<ReferralsResponse> {
  const referred = await referredAccounts(ctx.db, account.id);
  const window = statsWindow(ctx.now(), options.windowMinutes);
  const rows = await accountsDifficulty(
    ctx.db,
    referred.map((a) => a.username),
    window.from,
    window.to,
  );
  const rate = (algorithm: AlgorithmKey, difficulty: string) =>
    scaleHashrate(estimateHashrate(difficulty, options.hashesPerDifficulty(algorithm), window.seconds));

  const referals = referred.map((r) => ({
    username: r.username,
    revenue: '0',
    hashrates: ALGORITHMS.flatMap((a) => {
      const row = rows.find((x) => x.account === r.username && x.algorithm === a.key);
      if (!row) return [];
      const scaled = rate(a.key, row.acceptedDifficulty);
      return [{ algorithm: a.key, hashrate: scaled.value, units: scaled.units }];
    }),
  }));
  const hashrates = ALGORITHMS.map((a) => {
    const total = sumDecimals(rows.filter((x) => x.algorithm === a.key).map((x) => x.acceptedDifficulty));
    const scaled = rate(a.key, total);
    return { algorithm: a.key, value: scaled.value, units: scaled.units };
  });
  return { referral_count: referred.length, revenue: '0', hashrates, referals };
}
