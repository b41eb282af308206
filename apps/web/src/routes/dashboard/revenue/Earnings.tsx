import type { EarningRecord } from '@lodestone/contract';
import { type DashboardView, downloadEarningsCsv } from '../../../api/dashboard';
import type { Column } from '../../../components/DataTable';
import { formatApiDate, formatCoinAmount, formatHashrate } from '../../../lib/format';
import { useEarnings } from '../queries';
import { PagedHistory } from './PagedHistory';

/** Past earnings on the algorithm, paged, with the CSV download (the miner only). */
export function Earnings({ source, algorithm, timezone, account }: DashboardView & { account: string | undefined }) {
  return (
    <PagedHistory
      name="earnings"
      title="Past earnings"
      query={useEarnings(source, algorithm, timezone)}
      csv={
        account
          ? { fileName: 'earnings.csv', fetchFile: () => downloadEarningsCsv(account, algorithm, timezone) }
          : undefined
      }
      columns={EARNING_COLUMNS}
      rowKey={(row) => row.earning_timestamp}
      rowTestId="earning-row"
      empty="No earnings on this algorithm yet."
    />
  );
}

/**
 * The past earnings: a day's amounts, one coin a line, each whole on its line; under an amount, the part of it
 * that was transaction fees where the ledger knows it (docs/money.md, "FPPS").
 */
const EARNING_COLUMNS: readonly Column<EarningRecord>[] = [
  { label: 'Date', phone: 'primary', cell: (row) => formatApiDate(row.earning_timestamp) },
  { label: 'Average Speed', align: 'right', cell: (row) => formatHashrate(row.speed, row.speed_units) },
  {
    label: 'Amount',
    align: 'right',
    cell: (row) =>
      row.coins.length === 0 ? (
        '—'
      ) : (
        <ul>
          {row.coins.map((coin) => (
            <li key={coin.coin_ticker}>
              <span data-testid="earning-amount">
                {formatCoinAmount(coin.coin_balance, coin.coin_decimals, coin.coin_ticker)}
              </span>
              {coin.coin_fees !== undefined && (
                <span data-testid="earning-fees" className="block text-xs text-slate-500 dark:text-slate-400">
                  of which fees {formatCoinAmount(coin.coin_fees, coin.coin_decimals, coin.coin_ticker)}
                </span>
              )}
            </li>
          ))}
        </ul>
      ),
  },
];
