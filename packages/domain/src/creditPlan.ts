import type { DecimalInput } from './decimal.js';
import type { Exact } from './exact.js';
import { convertByProportions, feeRate, type PricedCoin, type Proportion, splitEarnings } from './pps.js';

/**
 * PPS credit planning: what each party earns from a share batch, before anything is written. The
 * server's ppsCredit service reads the accounts and prices, calls planCredits and posts the result
 * as one ledger transaction (docs/money.md, "PPS").
 */

/** What a credit is for; the ledger kind and the carried-fraction kind of the same name. */
export type CreditKind = 'pps' | 'fee' | 'referral' | 'redirect_in';

/** The settings of an account that decide how its earnings are split and converted. */
export interface CreditAccountRules {
  id: bigint;
  /** The account's fee discount, a fraction 0–1. */
  feeDiscount: DecimalInput;
  /** The live account that referred it, if any. */
  referrerId: bigint | null;
  /** Conversion list in force for the algorithm; empty when the account set none. */
  conversion: readonly Proportion[];
  /** Live redirect targets and their percentages. */
  redirects: readonly { targetId: bigint; percentage: DecimalInput }[];
}

/** The coin each algorithm's earnings are credited in when an account chose nothing. */
export function defaultConversion(minedCoin: string, catalogue: ReadonlySet<string>): Proportion[] {
  return [{ ticker: catalogue.has(minedCoin) ? minedCoin : 'BTC', proportion: 100 }];
}

/** One account's shares of a batch, valued in smallest units of the coin mined. */
export interface CreditLine {
  account: CreditAccountRules;
  /** Exact, fractional smallest units of `coin`. */
  value: Exact;
}

export interface CreditPlanInput {
  /** The coin mined (what each line's `value` is in). */
  coin: string;
  lines: readonly CreditLine[];
  feePercent: string | number;
  /** Decimals and fresh US dollar price of every coin involved. */
  priceOf: (ticker: string) => PricedCoin;
  catalogue: ReadonlySet<string>;
  /**
   * The coin an account that chose nothing is credited in, when it is not `coin`: for an aux coin of
   * merged mining, the algorithm's own coin (docs/money.md, "Merged mining").
   */
  defaultCoin?: string;
}

export type Recipient = { accountId: bigint } | { system: 'pool:fees' };

export interface PlannedCredit {
  recipient: Recipient;
  coin: string;
  kind: CreditKind;
  /** Exact, fractional smallest units. */
  amount: Exact;
  /** The account whose shares earned it, for referral rewards and redirects. */
  source?: bigint;
}

export const recipientKey = (r: Recipient): string => ('system' in r ? r.system : `a${r.accountId}`);

/**
 * What each party earns from a batch, exactly (fractions of a unit included). Each account's value
 * is divided by its conversion settings into coins at the prices, then split into fee (referral
 * reward out of it), redirects and the owner's part. Parts for the same party, coin, kind and source
 * are added together. Σ amounts per coin = Σ converted gross values, exactly.
 */
export function planCredits(input: CreditPlanInput): PlannedCredit[] {
  const mined = input.priceOf(input.coin);
  const totals = new Map<string, PlannedCredit>();
  const add = (recipient: Recipient, coin: string, kind: CreditKind, amount: Exact, source?: bigint) => {
    if (amount.isZero()) return;
    const key = `${recipientKey(recipient)}|${coin}|${kind}|${source ?? ''}`;
    const seen = totals.get(key);
    totals.set(
      key,
      seen
        ? { ...seen, amount: seen.amount.plus(amount) }
        : { recipient, coin, kind, amount, ...(source === undefined ? {} : { source }) },
    );
  };
  for (const { account, value } of input.lines) {
    if (value.isZero()) continue;
    const targets =
      account.conversion.length > 0
        ? account.conversion
        : defaultConversion(input.defaultCoin ?? input.coin, input.catalogue);
    const rules = {
      feeRate: feeRate(input.feePercent, account.feeDiscount),
      referred: account.referrerId !== null,
      redirects: account.redirects.map((r) => ({ to: r.targetId.toString(), percentage: r.percentage })),
    };
    for (const part of convertByProportions(value, mined, targets, input.priceOf)) {
      const split = splitEarnings(part.units, rules);
      add({ accountId: account.id }, part.ticker, 'pps', split.owner);
      for (const r of split.redirects)
        add({ accountId: BigInt(r.to) }, part.ticker, 'redirect_in', r.amount, account.id);
      if (account.referrerId !== null) {
        add({ accountId: account.referrerId }, part.ticker, 'referral', split.referral, account.id);
      }
      add({ system: 'pool:fees' }, part.ticker, 'fee', split.poolFee);
    }
  }
  return [...totals.values()];
}

/** Every ticker whose price crediting these accounts needs: the mined coin and every conversion target. */
export function tickersNeeded(
  coin: string,
  accounts: Iterable<Pick<CreditAccountRules, 'conversion'>>,
  catalogue: ReadonlySet<string>,
  defaultCoin = coin,
): string[] {
  const out = new Set([coin]);
  for (const a of accounts) {
    for (const t of a.conversion.length > 0 ? a.conversion : defaultConversion(defaultCoin, catalogue)) {
      out.add(t.ticker);
    }
  }
  return [...out];
}
