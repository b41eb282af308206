import { randomUUID } from 'node:crypto';
import {
  type ConversionConfigResponse,
  type ConversionEntry,
  type ConvertResponse,
  conversionListInput,
} from '@lodestone/contract';
import {
  type Account,
  type Coin,
  type ConversionListKey,
  type ConversionRow,
  conversionSettingsOf,
  type Executor,
  lockAccount,
  lockBalance,
  networkStates,
  postLedgerTransaction,
  replaceConversionSettings,
  type User,
} from '@lodestone/db';
import {
  ALGORITHMS,
  type AlgorithmKey,
  algorithmByKey,
  convertUnits,
  decimalToNumber,
  Exact,
  unitsToAmount,
} from '@lodestone/domain';
import { errors } from '../errors.js';
import { logEvent } from '../userLog.js';
import { catalogueByTicker, type MoneyContext } from './coinCatalogue.js';
import { loadPriceBook } from './priceBook.js';

export const CONVERSION_MESSAGES = {
  noCoin: 'You must select at least one coin before saving.',
  proportionRange: 'Proportions are numbers from 0 to 100',
  proportionDecimals: 'Proportions have at most 4 decimals',
  sameCoin: 'Choose a different coin to convert to',
  pricesUnavailable: 'Prices are unavailable right now, so nothing was converted. Try again later.',
} as const;

/** Percent with at most this many decimals (0.0001%): fine enough for any split, and exact. */
const PROPORTION_DECIMALS = 4;

/**
 * The coin each algorithm's earnings are credited in until the account chooses otherwise: the coin
 * that algorithm mines, so a new miner is paid in what they mine and nothing is converted unasked.
 */
export const DEFAULT_CONVERSION_COINS: Readonly<Record<AlgorithmKey, string>> = {
  scrypt: 'LTC',
  sha256: 'BTC',
  eaglesong: 'CKB',
  blake2s: 'KDA',
  x11: 'DASH',
  kheavyhash: 'KAS',
};

/** Where a refused list is, for messages: "for SCRYPT", or nothing for the shared list. */
const where = (label: string | null) => (label ? ` for ${label}` : '');

function parseProportion(value: string | number): Exact {
  let proportion: Exact;
  try {
    proportion = Exact.of(value);
  } catch {
    throw errors.invalid(CONVERSION_MESSAGES.proportionRange);
  }
  if (proportion.isNegative() || proportion.compare(100) > 0) throw errors.invalid(CONVERSION_MESSAGES.proportionRange);
  if (proportion.shifted(PROPORTION_DECIMALS).scale !== 0) {
    throw errors.invalid(CONVERSION_MESSAGES.proportionDecimals);
  }
  return proportion;
}

/**
 * Pure: one conversion list as a client sent it → the rows to store. Tickers must be in the
 * catalogue and appear once; proportions 0–100 with up to 4 decimals; the coins above 0% (the only
 * ones kept: 0% takes a coin out of the list) add up to exactly 100.
 */
export function parseConversionList(
  raw: unknown,
  catalogue: ReadonlyMap<string, Coin>,
  label: string | null,
): ConversionRow[] {
  const parsed = conversionListInput.safeParse(raw);
  if (!parsed.success) {
    throw errors.invalid(`${parsed.error.issues[0]?.message ?? 'Expected a list of coins'}${where(label)}`);
  }
  const seen = new Set<string>();
  const rows: ConversionRow[] = [];
  let total = Exact.ZERO;
  for (const entry of parsed.data) {
    const ticker = entry.ticker.trim().toUpperCase();
    if (!catalogue.has(ticker)) throw errors.invalid(`Unknown coin: ${entry.ticker.trim() || '(empty)'}`);
    if (seen.has(ticker)) throw errors.invalid(`${ticker} is listed twice${where(label)}`);
    seen.add(ticker);
    const proportion = parseProportion(entry.proportion);
    if (proportion.isZero()) continue;
    total = total.plus(proportion);
    rows.push({ ticker, proportion: proportion.toString() });
  }
  if (rows.length === 0) throw errors.invalid(CONVERSION_MESSAGES.noCoin);
  if (total.compare(100) !== 0) {
    throw errors.invalid(`The proportions${where(label)} add up to ${total}, not 100`);
  }
  return rows;
}

/**
 * Pure: the `conversion_settings` field → the lists to replace. With all_algorithms the shared list
 * (a list, or the GET answer's `all_algorithms`) is stored as 'all' and copied into every algorithm's
 * list; otherwise a map of algorithm → list, and algorithms left out keep what they have.
 */
export function parseConversionSettings(
  raw: unknown,
  allAlgorithms: boolean,
  catalogue: ReadonlyMap<string, Coin>,
): Map<ConversionListKey, ConversionRow[]> {
  const lists = new Map<ConversionListKey, ConversionRow[]>();
  if (allAlgorithms) {
    const shared =
      raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'all_algorithms' in raw
        ? raw.all_algorithms
        : raw;
    const rows = parseConversionList(shared, catalogue, null);
    lists.set('all', rows);
    for (const a of ALGORITHMS) lists.set(a.key, rows);
    return lists;
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw errors.invalid('conversion_settings must map each algorithm to its list of coins');
  }
  for (const [key, value] of Object.entries(raw)) {
    // The GET answer's own fields may come back with it; they are set by all_algorithms, not here.
    if (key === 'all_algorithms' || key === 'all_algorithms_setting') continue;
    const algorithm = algorithmByKey(key.toLowerCase());
    if (!algorithm) throw errors.invalid(`Unknown algorithm: ${key}`);
    lists.set(algorithm.key, parseConversionList(value, catalogue, algorithm.name));
  }
  return lists;
}

/**
 * The coin an algorithm's earnings go to by default, as crediting applies it: the coin the algorithm
 * mines now (its newest network state; BTC if that coin cannot be paid out), else the usual coin of
 * the algorithm before anything was mined.
 */
export async function defaultConversionCoins(
  db: Executor,
  catalogue: ReadonlyMap<string, Coin>,
): Promise<Record<AlgorithmKey, string>> {
  const defaults = { ...DEFAULT_CONVERSION_COINS };
  for (const state of await networkStates(db)) {
    defaults[state.algorithm] = catalogue.has(state.coin) ? state.coin : 'BTC';
  }
  return defaults;
}

const present = (rows: readonly ConversionRow[]): ConversionEntry[] =>
  rows.map((r) => ({ ticker: r.ticker, proportion: decimalToNumber(r.proportion) }));

/** GET user/conversion_config: what crediting applies to each algorithm, and the shared list. */
export async function readConversionConfig(ctx: MoneyContext, account: Account): Promise<ConversionConfigResponse> {
  const catalogue = await catalogueByTicker(ctx.db);
  const stored = await conversionSettingsOf(ctx.db, account.id);
  const defaults = await defaultConversionCoins(ctx.db, catalogue);
  const shared = stored.lists.get('all') ?? [];
  const useShared = stored.allAlgorithms && shared.length > 0;
  const perAlgorithm = Object.fromEntries(
    ALGORITHMS.map((a) => {
      const rows = useShared ? shared : (stored.lists.get(a.key) ?? [{ ticker: defaults[a.key], proportion: '100' }]);
      return [a.key, present(rows)];
    }),
  ) as Record<AlgorithmKey, ConversionEntry[]>;
  return { ...perAlgorithm, all_algorithms_setting: stored.allAlgorithms, all_algorithms: present(shared) };
}

/** POST user/conversion_config/update: validates, replaces the lists and writes the user log. */
export async function updateConversionConfig(
  ctx: MoneyContext,
  user: User,
  account: Account,
  input: { conversion_settings: unknown; all_algorithms: boolean },
): Promise<void> {
  const catalogue = await catalogueByTicker(ctx.db);
  const lists = parseConversionSettings(input.conversion_settings, input.all_algorithms, catalogue);
  await ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, account.id);
    await replaceConversionSettings(trx, account.id, lists, input.all_algorithms);
    await logEvent(trx, ctx.now(), {
      userId: user.id,
      accountId: account.id,
      name: 'conversion_settings_changed',
      value: {
        all_algorithms: input.all_algorithms,
        conversion_settings: Object.fromEntries(
          [...lists].filter(([key]) => !input.all_algorithms || key === 'all').map(([key, rows]) => [key, rows]),
        ),
      },
    });
  });
}

/**
 * POST user/convert: the account's whole balance of `base` becomes `target` at current fresh prices,
 * in one database transaction. Both balances are locked first (in coin order, the order ledger
 * writers use), so a concurrent conversion or payout of the same coins waits and then sees what is
 * left. The value below one smallest unit of the target stays with the pool (pool:conversions);
 * a balance too small to give one unit is refused rather than taken.
 */
export async function convertBalance(
  ctx: MoneyContext,
  user: User,
  account: Account,
  baseTicker: string,
  targetTicker: string,
): Promise<ConvertResponse> {
  if (baseTicker === targetTicker) throw errors.invalid(CONVERSION_MESSAGES.sameCoin);
  const catalogue = await catalogueByTicker(ctx.db);
  const base = catalogue.get(baseTicker);
  const target = catalogue.get(targetTicker);
  if (!base) throw errors.invalid(`Unknown coin: ${baseTicker}`);
  if (!target) throw errors.invalid(`Unknown coin: ${targetTicker}`);

  return ctx.db.transaction().execute(async (trx) => {
    const locked = new Map<string, bigint>();
    for (const coin of [base.ticker, target.ticker].sort()) locked.set(coin, await lockBalance(trx, account.id, coin));
    const amount = locked.get(base.ticker) ?? 0n;
    if (amount <= 0n)
      throw errors.refused('NOTHING_TO_CONVERT', `Nothing to convert: your ${base.ticker} balance is 0`);

    const now = ctx.now();
    const prices = await loadPriceBook(trx, now, ctx.priceMaxAgeMs);
    const baseUsd = prices.fresh(base.ticker);
    const targetUsd = prices.fresh(target.ticker);
    if (baseUsd === undefined || targetUsd === undefined) {
      // Unavailable: the refusal is the pool's state, not the request's; the same request works later.
      throw errors.unavailable('PRICES_UNAVAILABLE', CONVERSION_MESSAGES.pricesUnavailable);
    }
    const out = convertUnits(
      Exact.of(amount),
      { decimals: base.decimals, usd: baseUsd },
      { decimals: target.decimals, usd: targetUsd },
    ).floor();
    if (out <= 0n) {
      throw errors.refused(
        'AMOUNT_TOO_SMALL',
        `Your ${base.ticker} balance is too small to convert into ${target.ticker}`,
      );
    }

    await postLedgerTransaction(trx, {
      key: `convert:${account.id}:${randomUUID()}`,
      kind: 'conversion',
      reference: `${base.ticker}>${target.ticker}`,
      createdByUserId: user.id,
      reason: `at ${baseUsd} and ${targetUsd} USD`,
      legs: [
        { account: { accountId: account.id }, coin: base.ticker, amount: -amount, kind: 'conversion_out' },
        { account: { system: 'pool:conversions' }, coin: base.ticker, amount, kind: 'conversion_in' },
        { account: { accountId: account.id }, coin: target.ticker, amount: out, kind: 'conversion_in' },
        { account: { system: 'pool:conversions' }, coin: target.ticker, amount: -out, kind: 'conversion_out' },
      ],
    });
    const converted = {
      base_coin: base.ticker,
      base_amount: unitsToAmount(amount, base.decimals),
      target_coin: target.ticker,
      target_amount: unitsToAmount(out, target.decimals),
    };
    await logEvent(trx, now, {
      userId: user.id,
      accountId: account.id,
      name: 'balance_converted',
      value: { ...converted, base_usd: baseUsd, target_usd: targetUsd },
    });
    return { result: true as const, ...converted };
  });
}
