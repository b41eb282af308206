import type { EarningRecord } from '@lodestone/contract';
import { pageOf } from '@lodestone/domain';
import { useState } from 'react';
import { type DashboardView, downloadEarningsCsv } from '../../../api/dashboard';
import { type Column, DataTable } from '../../../components/DataTable';
import { LoadState } from '../../../components/LoadState';
import { Pager } from '../../../components/sections';
import { formatApiDate, formatCoinAmount, formatHashrate } from '../../../lib/format';
import { DASHBOARD_RETRY, useEarnings } from '../queries';
import { CsvButton } from './CsvButton';

import { REVENUE_PAGE_SIZE } from './pageSize';
import { SubHeading } from './SubHeading';

/** Past earnings on the algorithm, paged, with the CSV download (the miner only). */
export function Earnings({ source, algorithm, timezone, account }: DashboardView & { account: string | undefined }) {
  const earnings = useEarnings(source, algorithm, timezone);
  const [page, setPage] = useState(1);
  const { rows, window: paging } = pageOf(earnings.data ?? [], REVENUE_PAGE_SIZE, page);
  return (
    <div data-testid="earnings">
      <SubHeading
        title="Past earnings"
        action={
          account && (
            <CsvButton
              label="Download CSV"
              fileName="earnings.csv"
              testId="earnings-csv"
              fetchFile={() => downloadEarningsCsv(account, algorithm, timezone)}
            />
          )
        }
      />
      {earnings.data ? (
        <>
          <DataTable
            testId="earnings-table"
            columns={EARNING_COLUMNS}
            rows={rows}
            rowKey={(row) => row.earning_timestamp}
            rowTestId="earning-row"
            empty="No earnings on this algorithm yet."
          />
          <Pager window={paging} onPage={setPage} testId="earnings-page" label="Past earnings" />
        </>
      ) : (
        <LoadState retry={DASHBOARD_RETRY} isPending={earnings.isPending} error={earnings.error} what="earnings" />
      )}
    </div>
  );
}

/** The past earnings: a day's amounts, one coin a line, each whole on its line. */
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
            <li key={coin.coin_ticker} data-testid="earning-amount">
              {formatCoinAmount(coin.coin_balance, coin.coin_decimals, coin.coin_ticker)}
            </li>
          ))}
        </ul>
      ),
  },
];
