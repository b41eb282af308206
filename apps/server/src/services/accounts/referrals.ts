import type { ReferralsResponse } from '@lodestone/contract';
import {
  type Account,
  accountsDifficulty,
  latestPrices,
  listCoins,
  referralRewardsBySource,
  referredAccounts,
} from '@lodestone/db';
import {
  ALGORITHMS,
  type AlgorithmKey,
  Exact,
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
 * algorithm (over the pool's statistics window) and the referral rewards the ledger credited for
 * each, valued in BTC at the newest prices (8 decimals; a coin without a price is left out).
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

  const revenue = await rewardsInBtc(ctx, account.id);
  const referals = referred.map((r) => ({
    username: r.username,
    revenue: (revenue.get(r.id) ?? Exact.ZERO).toFixed(8),
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
  const total = [...revenue.values()].reduce((sum, v) => sum.plus(v), Exact.ZERO);
  return { referral_count: referred.length, revenue: total.toFixed(8), hashrates, referals };
}

/** Referral rewards per referred account, valued in BTC at the newest prices. */
async function rewardsInBtc(ctx: AccountsContext, accountId: bigint): Promise<Map<bigint, Exact>> {
  const rewards = await referralRewardsBySource(ctx.db, accountId);
  if (rewards.length === 0) return new Map();
  const [prices, coins] = await Promise.all([latestPrices(ctx.db), listCoins(ctx.db)]);
  const btc = prices.get('BTC');
  const decimals = new Map(coins.map((c) => [c.ticker, c.decimals]));
  const out = new Map<bigint, Exact>();
  if (!btc) return out;
  for (const r of rewards) {
    const usd = prices.get(r.coin)?.usd;
    const d = decimals.get(r.coin);
    if (usd === undefined || d === undefined) continue;
    const value = Exact.fromUnits(r.amount, d).times(usd).dividedBy(btc.usd, 12);
    out.set(r.sourceAccountId, (out.get(r.sourceAccountId) ?? Exact.ZERO).plus(value));
  }
  return out;
}
