import { randomUUID } from 'node:crypto';
import { ADMIN_BALANCE_DECIMALS, ADMIN_BALANCE_MAX_COINS, BALANCE_VALUE_MESSAGES as VALUE } from '@lodestone/contract';
import { coinByTicker, liveAccountByUsername, lockBalance, postLedgerTransaction, type User } from '@lodestone/db';
import { type AlgorithmKey, algorithmByKey, Exact, unitsToAmount } from '@lodestone/domain';
import type { AccountsContext } from '../accounts/context.js';
import { errors } from '../errors.js';
import { logEvent } from '../userLog.js';
import { ADMIN_MESSAGES } from './messages.js';

/**
 * Pure: the value an admin typed as signed smallest units of a coin with `coinDecimals` decimals.
 * Refused: text that is not a decimal, zero, more than 8 decimals (docs/admin.md, "Balance adjustments"), more decimals than the
 * coin has (a fraction of a smallest unit cannot be credited), more than ADMIN_BALANCE_MAX_COINS either way.
 */
export function adjustmentUnits(value: string, ticker: string, coinDecimals: number): bigint {
  let amount: Exact;
  try {
    amount = Exact.of(value);
  } catch {
    throw errors.invalid(VALUE.notNumber);
  }
  if (amount.isZero()) throw errors.invalid(VALUE.zero);
  if (amount.compare(ADMIN_BALANCE_MAX_COINS) > 0 || amount.compare(-ADMIN_BALANCE_MAX_COINS) < 0) {
    throw errors.invalid(VALUE.tooLarge);
  }
  if (amount.shifted(ADMIN_BALANCE_DECIMALS).scale !== 0) throw errors.invalid(VALUE.decimals);
  const units = amount.shifted(coinDecimals);
  if (units.scale !== 0) throw errors.invalid(VALUE.coinDecimals(ticker, coinDecimals));
  return units.n;
}

export interface Adjustment {
  username: string;
  algorithm: AlgorithmKey;
  ticker: string;
  /** Coin amount as typed (decimal text); negative for a debit. */
  value: string;
  reason: string;
  ip: string;
}

/**
 * POST admin/balance: adds `value` (negative: takes it away) to a live account's balance of a coin,
 * as one ledger transaction of kind `admin_adjustment` (key `admin:{uuid}`, the admin as its
 * creator, the reason kept): the account's leg (with the algorithm) and the opposite leg on
 * `pool:adjustments`, so the ledger stays balanced. A debit locks the balance first and is refused
 * with a clear message when it would go below zero (the database's check is only the backstop).
 * Both the admin's log and the account's log record it, in the same transaction.
 */
export async function adjustBalance(
  ctx: AccountsContext,
  admin: User,
  input: Adjustment,
): Promise<{ units: bigint; key: string }> {
  const account = await liveAccountByUsername(ctx.db, input.username);
  if (!account) throw errors.notFound(ADMIN_MESSAGES.accountNotFound);
  const coin = await coinByTicker(ctx.db, input.ticker);
  if (!coin) throw errors.invalid(ADMIN_MESSAGES.unknownCoin);
  const units = adjustmentUnits(input.value, coin.ticker, coin.decimals);
  const key = `admin:${randomUUID()}`;
  const now = ctx.now();
  const details = {
    ticker: coin.ticker,
    algorithm: algorithmByKey(input.algorithm)?.name ?? input.algorithm,
    value: unitsToAmount(units, coin.decimals),
    units: units.toString(),
    reason: input.reason,
    transaction: key,
    ip: input.ip,
  };
  await ctx.db.transaction().execute(async (trx) => {
    if (units < 0n) {
      const balance = await lockBalance(trx, account.id, coin.ticker);
      if (balance + units < 0n) {
        throw errors.refused(
          'BALANCE_BELOW_ZERO',
          ADMIN_MESSAGES.belowZero(account.username, unitsToAmount(balance, coin.decimals), coin.ticker),
        );
      }
    }
    await postLedgerTransaction(trx, {
      key,
      kind: 'admin_adjustment',
      createdByUserId: admin.id,
      reason: input.reason,
      at: now,
      legs: [
        {
          account: { accountId: account.id },
          coin: coin.ticker,
          amount: units,
          kind: 'admin_adjustment',
          algorithm: input.algorithm,
        },
        { account: { system: 'pool:adjustments' }, coin: coin.ticker, amount: -units, kind: 'admin_adjustment' },
      ],
    });
    await logEvent(trx, now, {
      userId: admin.id,
      name: 'admin_balance_adjusted',
      value: { username: account.username, ...details },
    });
    await logEvent(trx, now, {
      userId: account.user_id,
      accountId: account.id,
      name: 'balance_adjusted',
      value: { ...details, admin_email: admin.email, admin_user_id: admin.id.toString() },
    });
  });
  return { units, key };
}
