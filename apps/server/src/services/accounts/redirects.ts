import { redirectSettings } from '@lodestone/contract';
import {
  type Account,
  liveAccountByUsername,
  lockAccount,
  redirectsOfAccount,
  replaceRedirects,
  type User,
} from '@lodestone/db';
import { decimalToNumber, Exact, plainDecimal } from '@lodestone/domain';
import { errors } from '../errors.js';
import { logEvent } from '../userLog.js';
import type { AccountsContext } from './context.js';

export const REDIRECT_MESSAGES = {
  overHundred: 'The percentages add up to more than 100',
  toSelf: 'An account cannot redirect to itself',
  duplicate: 'Each account may appear only once',
} as const;

/** GET user/redirect_config */
export async function readRedirects(ctx: AccountsContext, account: Account) {
  const rows = await redirectsOfAccount(ctx.db, account.id);
  return {
    redirect_settings: rows.map((r) => ({ username: r.targetUsername, percentage: decimalToNumber(r.percentage) })),
  };
}

/**
 * POST user/redirect_config/update: replaces the account's redirects with the given map of account
 * name → percentage. Targets are live accounts of anyone (a miner may share earnings with a
 * friend); 0 removes a target; the total is at most 100: the contract's check sums floats with a
 * hair of tolerance, this one sums the exact decimals stored, and the database checks again at commit.
 */
export async function updateRedirects(ctx: AccountsContext, user: User, account: Account, raw: unknown) {
  const parsed = redirectSettings.safeParse(raw);
  if (!parsed.success) throw errors.invalid(parsed.error.issues[0]?.message ?? 'Invalid redirect settings');
  const entries = Object.entries(parsed.data).filter(([, percentage]) => percentage > 0);
  await ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, account.id);
    const rows: { targetAccountId: bigint; percentage: string }[] = [];
    for (const [name, percentage] of entries) {
      const target = await liveAccountByUsername(trx, name);
      if (!target) throw errors.refused('UNKNOWN_ACCOUNT', `Unknown account: ${name}`);
      if (target.id === account.id) throw errors.refused('REDIRECT_TO_SELF', REDIRECT_MESSAGES.toSelf);
      if (rows.some((r) => r.targetAccountId === target.id)) {
        throw errors.refused('DUPLICATE_REDIRECT', REDIRECT_MESSAGES.duplicate);
      }
      rows.push({ targetAccountId: target.id, percentage: plainDecimal(percentage) });
    }
    const total = rows.reduce((sum, r) => sum.plus(r.percentage), Exact.ZERO);
    if (total.compare(100) > 0) throw errors.refused('REDIRECT_OVER_100', REDIRECT_MESSAGES.overHundred);
    await replaceRedirects(trx, account.id, rows);
    await logEvent(trx, ctx.now(), {
      userId: user.id,
      accountId: account.id,
      name: 'redirect_settings_changed',
      value: { redirect_settings: Object.fromEntries(entries) },
    });
  });
}
