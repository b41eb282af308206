import type { Executor } from '@lodestone/db';
import { unitsToAmount } from '@lodestone/domain';
import { Gauge, type Registry } from 'prom-client';
import { readTreasury, type Treasury, type TreasuryCoinFigures } from '../services/admin/treasury.js';
import type { ServiceLog } from '../services/log.js';
import { ttlCache } from '../services/ttlCache.js';

/**
 * The treasury as Prometheus gauges (docs/admin.md, "Treasury"), from the same service as the admin
 * page and `lodestone treasury`, read when /metrics is scraped (at most once per TREASURY_METRICS_TTL_MS).
 *
 * A gauge is a float64, which cannot hold 18-decimal amounts exactly: the `_coins` gauges are coin
 * amounts (not smallest units) as the nearest float, for alerting and graphs only. The exact figures
 * are the API's and the command's. When the read fails every treasury series is dropped (and the
 * failure logged), so `absent(lodestone_treasury_owed_coins)` catches it rather than stale values.
 */
export const TREASURY_METRICS_TTL_MS = 10_000;

type Figure = (f: TreasuryCoinFigures, at: Date) => number | undefined;

/** Coin amount (smallest units of a coin with `decimals`) as the nearest float. */
const coins = (units: bigint, decimals: number) => Number(unitsToAmount(units, decimals));

const PER_COIN: { name: string; help: string; value: Figure }[] = [
  {
    name: 'lodestone_treasury_owed_coins',
    help: 'What the pool owes its miners: the sum of their balances, in coins (float; exact figures in GET /v1/admin/treasury).',
    value: (f) => coins(f.owed, f.coin.decimals),
  },
  {
    name: 'lodestone_treasury_due_coins',
    help: 'What the next payout run pays, in coins.',
    value: (f) => coins(f.due, f.coin.decimals),
  },
  {
    name: 'lodestone_treasury_wallet_coins',
    help: "The hot wallet's spendable balance at its last good read, in coins (absent without a wallet or a good read).",
    value: (f) => (f.wallet?.reading ? coins(f.wallet.reading.balance, f.coin.decimals) : undefined),
  },
  {
    name: 'lodestone_treasury_shortfall_coins',
    help: 'What the hot wallet lacks to pay what is due and keep its min_balance, in coins (0 when covered).',
    value: (f) => coins(f.shortfall, f.coin.decimals),
  },
  {
    name: 'lodestone_treasury_wallet_age_seconds',
    help: "Seconds since the hot wallet's last good read (absent without a wallet or a good read).",
    value: (f, at) =>
      f.wallet?.reading ? Math.max(0, (at.getTime() - f.wallet.reading.at.getTime()) / 1000) : undefined,
  },
  {
    name: 'lodestone_treasury_wallet_read_failing',
    help: "1 when the hot wallet's last read failed, else 0 (absent without a wallet).",
    value: (f) => (f.wallet ? (f.wallet.error === null ? 0 : 1) : undefined),
  },
  {
    name: 'lodestone_treasury_waiting_payouts',
    help: 'Payouts written but not known to be sent (pending or sending).',
    value: (f) => f.open.count,
  },
  {
    name: 'lodestone_treasury_waiting_accounts',
    help: 'Accounts due a payout that wait for the hot wallet (or its fee reserve) to be funded.',
    value: (f) => f.waitingForFunds,
  },
  {
    name: 'lodestone_treasury_profit_coins',
    help: "The pool's own profit and loss from the ledger, in coins: block rewards mined − PPS credited + fees kept.",
    value: (f) => coins(f.result.net, f.coin.decimals),
  },
];

const FEE: { name: string; help: string; value: (f: TreasuryCoinFigures) => number | undefined }[] = [
  {
    name: 'lodestone_treasury_fee_reserve_coins',
    help: "A token wallet's fee reserve (ETH for USDC) at its last good read, in coins of fee_coin.",
    value: (f) => (f.feeReserve?.spendable == null ? undefined : coins(f.feeReserve.spendable, f.feeReserve.decimals)),
  },
  {
    name: 'lodestone_treasury_fee_shortfall_coins',
    help: "What a token wallet's fee reserve lacks to pay the fees of what is due, in coins of fee_coin.",
    value: (f) => (f.feeReserve?.shortfall == null ? undefined : coins(f.feeReserve.shortfall, f.feeReserve.decimals)),
  },
];

export function registerTreasuryMetrics(
  registry: Registry,
  options: { db: Executor; now: () => Date; log: ServiceLog },
): void {
  const read = ttlCache(TREASURY_METRICS_TTL_MS, async (): Promise<Treasury | undefined> => {
    try {
      return await readTreasury(options.db, options.now());
    } catch (error) {
      options.log.error({ err: error }, 'treasury metrics could not be read');
      return undefined;
    }
  });
  for (const metric of PER_COIN) {
    new Gauge({
      name: metric.name,
      help: metric.help,
      labelNames: ['coin'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const treasury = await read();
        for (const f of treasury?.coins ?? []) {
          const value = metric.value(f, treasury?.at ?? new Date());
          if (value !== undefined) this.set({ coin: f.coin.ticker }, value);
        }
      },
    });
  }
  for (const metric of FEE) {
    new Gauge({
      name: metric.name,
      help: metric.help,
      labelNames: ['coin', 'fee_coin'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const f of (await read())?.coins ?? []) {
          const value = metric.value(f);
          if (value !== undefined && f.feeReserve)
            this.set({ coin: f.coin.ticker, fee_coin: f.feeReserve.coin }, value);
        }
      },
    });
  }
}
